import Testing

@testable import SettingsEditor

@Suite struct LineEditorTests {
  @Test func typesAtTheCursorAndDeletes() {
    var field = LineEditor(text: "ab")
    #expect(field.handle(.left) == .editing)
    _ = field.handle(.character("X"))
    #expect(field.text == "aXb")
    _ = field.handle(.backspace)
    _ = field.handle(.home)
    _ = field.handle(.delete)
    #expect(field.text == "b")
    #expect(field.cursor == 0)
  }

  @Test func enterCommitsAndEscapeCancels() {
    var field = LineEditor(text: "")
    #expect(field.handle(.enter) == .commit)
    #expect(field.handle(.escape) == .cancel)
  }

  /// Types `keys` into a field holding `text`.
  private func field(_ text: String, _ keys: KeyPress...) -> LineEditor {
    var field = LineEditor(text: text)
    for key in keys { _ = field.handle(key) }
    return field
  }

  private static let controlU = KeyPress.character("\u{15}")
  private static let controlK = KeyPress.character("\u{B}")
  private static let controlW = KeyPress.character("\u{17}")
  private static let controlA = KeyPress.character("\u{1}")
  private static let controlE = KeyPress.character("\u{5}")

  /// Bug 4: `C-u C-w C-k Enter` saved `Imported\u{15}\u{17}\u{b}`.
  @Test func controlKeysEditAndNeverBecomeText() {
    #expect(field("Imported", Self.controlU, Self.controlW, Self.controlK).text == "")
    for code in UInt32(0)..<0x20 where ![8, 9, 10, 13, 27].contains(code) {
      let character = Character(Unicode.Scalar(code)!)
      #expect(!field("ab", .character(character)).text.contains(character), "\(code)")
    }
  }

  @Test func shellKeysMoveAndEraseByLineAndWord() {
    #expect(field("one two three", Self.controlW).text == "one two ")
    #expect(field("one two three", .meta("b"), Self.controlK).text == "one two ")
    #expect(field("one two three", Self.controlA, .meta("f"), Self.controlU).text == " two three")
    #expect(field("one two", Self.controlA, .meta("f"), .meta("f")).cursor == 7)
    #expect(field("one two", Self.controlA, Self.controlE).cursor == 7)
    #expect(field("one two", .home, .meta("d")).text == " two")
    #expect(field("one-two", .meta("\u{7F}")).text == "one-")
    #expect(field("ab", .left, .left, .left, .delete).text == "b")
    #expect(field("ab", .home, .backspace).text == "ab")
    let pasted = String(repeating: "0123456789", count: 500)
    var paste = LineEditor(text: "")
    for character in pasted { _ = paste.handle(.character(character)) }
    #expect(paste.text == pasted && paste.cursor == 5000)
  }
}

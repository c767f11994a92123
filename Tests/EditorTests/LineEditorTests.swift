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
}

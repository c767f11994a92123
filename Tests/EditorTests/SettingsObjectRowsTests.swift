import ObservableDefaults
import Testing

@testable import SettingsEditor

/// The seed documentation's first example.
@ObservableDefaults
final class ProfileSettings {
  /// The user's name.
  var name: String = "Fatbobman"
  var age: Int = 20
  var nickname: String? = nil
}

/// A custom key, a narrow integer and an observable-only property.
@ObservableDefaults(prefix: "look_")
final class LookSettings {
  @DefaultsKey(userDefaultsKey: "ui-theme") var theme: String = "system"
  var columns: UInt8 = 80
  var showsToolbar = true
  @ObservableOnly var isPreviewing = false
}

@MainActor
@Suite struct SettingsObjectRowsTests {
  private let suite = TestPreferences.uniqueSuite()

  @Test func oneRowPerPropertyWithKeyTypeValueAndDefault() {
    let rows = SettingsObjectRows(
      AnySettings(LookSettings(userDefaults: TestPreferences.writer(ofSuite: suite))))
    #expect(rows.title == "LookSettings")
    #expect(rows.location == TestPreferences.file(ofSuite: suite).path)
    let all = (0..<rows.rowCount).map(rows.row(at:))
    #expect(all.map(\.name) == ["theme", "columns", "showsToolbar", "isPreviewing"])
    #expect(all.map(\.key) == ["look_ui-theme", "look_columns", "look_showsToolbar", nil])
    #expect(all.map(\.typeName) == ["String", "UInt8", "Bool", "Bool"])
    #expect(all.map(\.value) == ["system", "80", "true", "false"])
    #expect(all.allSatisfy { !$0.isModified })
    #expect(
      all[1].editing
        == .text(
          TextValueFormat(base: .integer(name: "UInt8", bitWidth: 8, signed: false)), text: "80"))
    #expect(all[2].editing == .toggle(true))
  }

  @Test func optionalsShowNilAndTakeEmptyTextAsNil() throws {
    let profile = ProfileSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    let rows = SettingsObjectRows(AnySettings(profile))
    let nickname = rows.row(at: 2)
    #expect(nickname.typeName == "String?")
    #expect(nickname.value == "nil")
    #expect(nickname.editing == .text(TextValueFormat(base: .string, isOptional: true), text: ""))
    try rows.setValue(try TextValueFormat(base: .string, isOptional: true).parse("Bob"), at: 2)
    #expect(profile.nickname == "Bob")
    #expect(rows.row(at: 2).isModified)
    try rows.setValue(try TextValueFormat(base: .string, isOptional: true).parse(""), at: 2)
    #expect(profile.nickname == nil)
  }

  @Test func editingThroughTheSessionStoresTypedValues() {
    let look = LookSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    let session = EditorSession(sources: [SettingsObjectRows(AnySettings(look))])
    for key: KeyPress in [
      .down, .enter, .backspace, .backspace, .character("9"), .character("9"), .enter,
    ] { _ = session.handle(key) }
    #expect(look.columns == 99)
    for key: KeyPress in [.enter, .character("9"), .enter] { _ = session.handle(key) }
    #expect(
      session.state.message?.text
        == "columns (UInt8) not changed: out of range 0…255 (UInt8 expected): \"999\"")
    #expect(look.columns == 99)
    _ = session.handle(.escape)
    for key: KeyPress in [.down, .character(" ")] { _ = session.handle(key) }
    #expect(!look.showsToolbar)
  }

  @Test func aWriteThroughAnotherStoreRedrawsOnlyThatRow() throws {
    let profile = ProfileSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    let canvas = MemoryCanvas(rows: 10, columns: 80)
    let screen = EditorScreen(
      canvas: canvas, session: EditorSession(sources: [SettingsObjectRows(AnySettings(profile))]),
      glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))

    try TestPreferences.writer(ofSuite: suite).write(42, forKey: "age")
    screen.draw(Damage())
    #expect(profile.age == 42)
    #expect(canvas.line(3).hasSuffix("│~ age       Int      42"), "marked: changed elsewhere")
    #expect((0..<3).map { screen.redrawCount(source: 0, row: $0) } == [0, 1, 0])
  }
}

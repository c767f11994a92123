import ObservableDefaults
import Testing

@testable import SettingsEditor

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

  /// Issue 13, bug 7: Space on an `@ObservableOnly` property said "Saved" though nothing is stored.
  @Test func anObservableOnlyToggleSaysItIsNotStored() {
    let suite = TestPreferences.uniqueSuite()
    let rows = SettingsObjectRows(
      AnySettings(LookSettings(userDefaults: TestPreferences.writer(ofSuite: suite))))
    let (_, session, _) = TestScreen.show(rows, rows: 10)
    for key: KeyPress in [.down, .down, .down, .character(" ")] { _ = session.handle(key) }
    #expect(
      session.state.message?.text == "Set isPreviewing = true (@ObservableOnly: not stored)")
  }

  /// Issue 13, bug 6: a stored value that does not decode showed the default with no mark; `i`
  /// showed the default too. Now: `!`, the reason on the context line and in `i`, and `d` removes
  /// it.
  @Test func anUndecodableStoredValueIsMarkedExplainedAndRemovedByD() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write("hello", forKey: "volume")
    let settings = EditorTypeSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    let rows = SettingsObjectRows(AnySettings(settings))
    let (canvas, session, screen) = TestScreen.show(rows, rows: 24)
    for _ in 0..<2 { screen.draw(session.handle(.down)) }
    #expect(canvas.line(4).contains("│! volume") && canvas.line(4).contains("Int8"))
    #expect(canvas.line(4).hasSuffix("5"), "the default is what the program reads")
    #expect(
      canvas.line(22)
        == #" volume: stored "hello" (String) does not decode as Int8; d removes it"#)
    screen.draw(session.handle(.character("i")))
    #expect(canvas.lines.contains { $0.contains(#"Problem  stored "hello" (String) does not"#) })
    screen.draw(session.handle(.escape))
    screen.draw(session.handle(.character("d")))
    #expect(writer.persistentValue(forKey: "volume") == nil)
    #expect(canvas.line(4).contains("│  volume"))
  }
}

import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import TestSupport
import Testing

@testable import SettingsEditor

/// Another program's class on its suite, from its published schema: defaults of unset keys,
/// marks, checks against the schema, resets, and one row redrawn per outside change.
@MainActor
@Suite struct PublishedSchemaRowsTests {
  let suite = TestPreferences.uniqueSuite()
  let canvas = MemoryCanvas(rows: 12, columns: 100)

  private var schema: SettingsSchema {
    let themes = ["light", "dark"].map {
      SettingsSchema.Choice(name: $0, value: PropertyListObject($0)!)
    }
    return SettingsSchema(
      program: .init(name: "app"), module: "App", className: "Settings", store: .suite(suite),
      prefix: "app.", schemaVersion: nil,
      keys: [
        .init(
          name: "theme", key: "theme", typeName: "Theme",
          valueType: .enumeration(cases: ["light", "dark"]), storedForm: .rawString,
          defaultValue: PropertyListObject("light"), summary: "Colours.", choices: themes),
        .init(
          name: "scrollback", key: "scrollback", typeName: "Int16",
          valueType: .integer(bitWidth: 16, signed: true), storedForm: .integer,
          defaultValue: PropertyListObject(1000), summary: "Lines kept.",
          discussion: "In the scroll-back buffer.", range: .init(minimum: -32768, maximum: 32767)),
        .init(
          name: "lastFolder", key: "lastFolder", typeName: "Optional<String>",
          valueType: .optional(.string), storedForm: .string, defaultValue: nil),
      ])
  }

  /// Two programs with a class of the same name: each is titled with its program; a class
  /// name only one program has keeps its plain title.
  @Test func classesOfTheSameNameAreTitledWithTheirProgram() {
    var other = schema
    other.program = .init(name: "other-app")
    var unique = schema
    unique.className = "Layout"
    let titles = PublishedSchemaRows.rows(
      of: [schema, unique, other], preferences: TestPreferences.folder
    ).map(\.title)
    #expect(titles == ["Settings · app", "Layout", "Settings · other-app"])
  }

  /// The rows on screen, watching the suite, with the rows pane focused.
  private func open() -> (PublishedSchemaRows, EditorSession, EditorScreen) {
    let rows = PublishedSchemaRows(schema, preferences: TestPreferences.folder)
    rows.startWatching { job in MainActor.assumeIsolated { job() } }
    let session = EditorSession(sources: [rows])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    return (rows, session, screen)
  }

  /// The suite file's values, once the editor's writes are in it (stores of one file share them).
  private func stored() throws -> [String: Any] {
    try TestPreferences.writer(ofSuite: suite).flush()
    return try PropertyListFile(url: TestPreferences.file(ofSuite: suite)).read()?.values
      .stringKeyed ?? [:]
  }

  /// A key whose doc comment is empty (or missing) has no description: the context line goes
  /// from its name to its default, with no empty part between two dots.
  @Test func aKeyWithoutDocumentationHasNoEmptyPartOnTheContextLine() throws {
    let (rows, session, screen) = open()
    #expect(rows.row(at: 2).summary == nil)
    session.state.rowIndex = 2
    screen.draw(Damage(rows: [0, 2]))
    #expect(canvas.line(10) == " lastFolder · default: nil")
  }

  @Test func unsetKeysShowTheirDefaultsAndAStoredValueIsMarked() throws {
    try TestPreferences.writer(ofSuite: suite).write(5, forKey: "app.scrollback")
    let (rows, _, _) = open()
    #expect(rows.title == "Settings")
    #expect(rows.location == "app: \(TestPreferences.file(ofSuite: suite).path)")
    #expect(rows.suiteName == suite)
    #expect(canvas.line(2).hasSuffix("│  theme       app.theme       Theme    light"))
    #expect(canvas.line(3).hasSuffix("│* scrollback  app.scrollback  Int16    5"))
    #expect(canvas.line(4).hasSuffix("│  lastFolder  app.lastFolder  String?  nil"))
    let row = rows.row(at: 1)
    #expect(row.key == "app.scrollback")
    #expect(row.defaultValue == "1000")
    #expect(row.summary == "Lines kept. In the scroll-back buffer.")
    #expect(row.problem == nil)
  }

  @Test func aStoredValueThatDoesNotFitShowsTheDefaultAndSaysWhy() throws {
    try TestPreferences.writer(ofSuite: suite).write("loud", forKey: "app.scrollback")
    let (rows, _, _) = open()
    #expect(canvas.line(3).hasSuffix("│! scrollback  app.scrollback  Int16    1000"))
    #expect(
      rows.row(at: 1).problem
        == #"stored a string ("loud") does not fit: Int16 (an integer from -32768 to 32767) expected"#
    )
  }

  @Test func anEnumerationCyclesByItsCasesAndStoresTheRawValue() throws {
    let (_, session, screen) = open()
    screen.draw(session.handle(.right))
    #expect(canvas.line(2).hasSuffix("│* theme       app.theme       Theme    dark"))
    #expect(try stored()["app.theme"] as? String == "dark")
  }

  @Test func anIntegerOutsideItsRangeIsRefusedAndNothingIsWritten() throws {
    let (_, session, screen) = open()
    for key: KeyPress in [.down, .enter, .backspace, .backspace, .backspace, .backspace]
      + "40000".map(KeyPress.character) + [.enter]
    {
      screen.draw(session.handle(key))
    }
    #expect(canvas.line(9).contains("out of range -32768…32767"), "\(canvas.line(9))")
    #expect(try stored()["app.scrollback"] == nil)
    for key: KeyPress in [.escape, .enter, .backspace, .backspace, .backspace, .backspace]
      + "-7".map(KeyPress.character) + [.enter]
    {
      screen.draw(session.handle(key))
    }
    #expect(try stored()["app.scrollback"] as? Int == -7)
    screen.draw(session.handle(.character("d")))
    #expect(try stored()["app.scrollback"] == nil, "d removes the key")
    #expect(canvas.line(3).hasSuffix("│  scrollback  app.scrollback  Int16    1000"))
  }

  @Test func anotherWriterRedrawsOnlyThatKeysRow() throws {
    let (_, _, screen) = open()
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write(42, forKey: "app.scrollback")
    screen.draw(Damage())
    #expect(canvas.line(3).contains("scrollback  app.scrollback  Int16    42"))
    #expect((0..<3).map { screen.redrawCount(source: 0, row: $0) } == [0, 1, 0])
    try writer.write("other", forKey: "app.unlisted")
    screen.draw(Damage())
    #expect((0..<3).map { screen.redrawCount(source: 0, row: $0) } == [0, 1, 0])
  }

  @Test func textFromTheSchemaReachesTheScreenEscaped() throws {
    let hostile = SettingsSchema(
      program: .init(name: "evil\u{1B}]0;title\u{07}"), module: "Evil", className: "Evil\u{1B}[2J",
      store: .suite(suite), prefix: "", schemaVersion: nil,
      keys: [
        .init(
          name: "k\u{1B}[31m", key: "k", typeName: "String\u{08}", valueType: .string,
          storedForm: .string, defaultValue: PropertyListObject("\u{1B}[2J"),
          summary: "clear\u{1B}[2J")
      ])
    let rows = PublishedSchemaRows(hostile, preferences: TestPreferences.folder)
    let session = EditorSession(sources: [rows])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    let lines = (0..<12).map(canvas.line)
    #expect(!lines.joined().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    #expect(lines[2].contains("k\\u{1b}[31m"), "\(lines)")
  }
}

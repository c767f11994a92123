import Foundation
import ObservableDefaultsCore
import ObservableDefaultsSchema
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsCore
@testable import SettingsEditor

/// The editor's first paint with published schemas reads the suite it shows only (a schema's
/// suite was read at start to decide its "other keys"); a suite's other keys are listed after
/// its schema once the schema is shown, and a suite that does not parse says so when shown.
@MainActor
@Suite struct SchemaFirstPaintTests {
  @Test func theFirstPaintParsesOnlyTheShownSchemasSuite() async throws {
    let base = TestPreferences.uniqueSuite()
    let names = (0..<5).map { "\(base).\($0)" }
    for (index, name) in names.enumerated() {
      // Suites 0 and 2 hold a key their schema does not list.
      let others = index % 2 == 0 && index < 4 ? ["typo-\(index)": index] : [:]
      try TestPreferences.write(others.merging(["key": index]) { $1 }, toSuite: name)
    }
    let (sources, groups, canvas, session, screen) = firstPaint(of: names)
    #expect(TestPreferences.parses(of: names) == [1, 0, 0, 0, 0], "the shown schema's suite only")
    #expect(canvas.line(2).contains("key"), "\(canvas.line(2))")

    // Its other keys are listed after it once the paint read the suite: unannounced.
    #expect(await poll { session.sources.count == 6 })
    #expect(session.sources[1] === groups[0].rows)
    #expect(session.state.message == nil)
    screen.draw(session.state.outsideDamage)
    #expect(canvas.line(3).hasPrefix("  Settings0 · other keys"), "\(canvas.line(3))")
    #expect(
      TestPreferences.parses(of: names) == [1, 0, 0, 0, 0], "the other keys share the schema's read"
    )

    // Shown: the suite without other keys is read and lists none; the one with some, after it.
    for key: KeyPress in [.left, .down, .down] { screen.draw(session.handle(key)) }
    #expect(session.currentSource === sources[1])
    #expect(TestPreferences.parses(of: names) == [1, 1, 0, 0, 0])
    screen.draw(session.handle(.down))
    #expect(TestPreferences.parses(of: names) == [1, 1, 1, 0, 0])
    #expect(await poll { session.sources.count == 7 })
    #expect(session.sources[4] === groups[2].rows)
    screen.draw(session.handle(.down))
    #expect(session.currentSource === groups[2].rows)
    #expect(canvas.line(2).contains("typo-2"), "\(canvas.line(2))")
    #expect(TestPreferences.parses(of: names) == [1, 1, 1, 0, 0])
  }

  @Test func aSchemasSuiteThatDoesNotParseSaysSoWhenItIsShown() async throws {
    let names = ["a", "b-broken"].map { "\(TestPreferences.uniqueSuite()).\($0)" }
    try TestPreferences.write(["key": 1], toSuite: names[0])
    try Data("<plist><dict><key>key</key>".utf8).write(to: TestPreferences.file(ofSuite: names[1]))
    let (sources, _, canvas, session, screen) = firstPaint(of: names)
    #expect(TestPreferences.parses(of: [names[0]]) == [1])
    #expect(sources[1].suiteFile == nil, "nothing said about a suite not read")

    for key: KeyPress in [.left, .down] { screen.draw(session.handle(key)) }
    #expect(canvas.line(0).hasSuffix("[object, UNREADABLE]"), "\(canvas.line(0))")
    #expect(canvas.line(10).hasPrefix(" No values read"), "\(canvas.line(10))")
    // Its store, opened after watching began, tells when the file reads again.
    try TestPreferences.write(["key": 2], toSuite: names[1])
    #expect(await poll { sources[1].unreadableReason == nil })
    screen.draw(Damage())
    #expect(canvas.line(0).hasSuffix("[object, LIVE]"), "\(canvas.line(0))")
  }

  /// A schema of one key (`key`) on each suite of `names`, in order: the editor's first paint
  /// of them, each watched and its other keys followed as the editor's loop does before it.
  private func firstPaint(of names: [String]) -> (
    [PublishedSchemaRows], [OtherKeys], MemoryCanvas, EditorSession, EditorScreen
  ) {
    let schemas = names.enumerated().map { index, name in
      SettingsSchema(
        program: .init(name: "app"), module: "App", className: "Settings\(index)",
        store: .suite(name), prefix: "", schemaVersion: nil,
        keys: [
          .init(
            name: "key", key: "key", typeName: "Int",
            valueType: .integer(bitWidth: 64, signed: true),
            storedForm: .integer, defaultValue: PropertyListObject(0))
        ])
    }
    let sources = PublishedSchemaRows.rows(of: schemas, preferences: TestPreferences.folder)
    let groups = OtherKeys.groups(of: sources)
    let session = EditorSession(sources: sources)
    // The changes seen go to the change log only, not to the user's change history.
    session.history = nil
    let post: MainJobPoster = { job in Task { @MainActor in job() } }
    for source in sources {
      session.recordChanges(of: source, post: post)
      source.startWatching(post: post)
    }
    OtherKeys.follow(groups, session: session, post: post)
    let canvas = MemoryCanvas(rows: 12, columns: 100)
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    return (sources, groups, canvas, session, screen)
  }
}

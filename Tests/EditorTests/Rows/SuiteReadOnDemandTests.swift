import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import Synchronization
import TestSupport
import Testing

@testable import ObservableDefaultsCore
@testable import SettingsEditor

/// An editor listing many suites (`settings-editor` lists every suite of the preferences
/// folder) reads a suite when its rows are first needed: the first paint parses the suite it
/// shows only, not a large one listed below it; selecting a suite reads it, follows it live
/// from then on, and says there that it does not parse.
@MainActor
@Suite struct SuiteReadOnDemandTests {
  /// Keys of the large suite.
  private static let largeKeys = 20_000

  @Test func theFirstPaintParsesOnlyTheShownSuite() async throws {
    let base = TestPreferences.uniqueSuite()
    let names = ["a", "b-large", "c", "d", "e"].map { "\(base).\($0)" }
    for name in names {
      let count = name.hasSuffix("large") ? Self.largeKeys : 3
      let values = Dictionary(
        uniqueKeysWithValues: (0..<count).map { (String(format: "key-%05d", $0), $0) })
      try TestPreferences.write(values, toSuite: name)
    }
    let (sources, canvas, session, screen) = firstPaint(of: names, rows: 12)
    #expect(TestPreferences.parses(of: names) == [1, 0, 0, 0, 0], "the shown suite only")
    #expect(canvas.line(2).contains("key-00000"))

    for key: KeyPress in [.left, .down] { screen.draw(session.handle(key)) }
    #expect(
      TestPreferences.parses(of: names) == [1, 1, 0, 0, 0], "the large suite once it is shown")
    #expect(sources[1].rowCount == Self.largeKeys)
    #expect(canvas.line(2).contains("key-00000"))

    // Read after watching began: followed live from then on, one row redrawn.
    _ = try PropertyListFile(url: TestPreferences.file(ofSuite: names[1])).apply([
      "key-00000": .set("changed elsewhere")
    ])
    #expect(await poll { sources[1].valuesTaken == 1 })
    screen.draw(Damage())
    #expect(canvas.line(2).contains("changed elsewhere"), "\(canvas.line(2))")
    #expect(screen.redrawCount(source: 1, row: 0) == 1)
    #expect(TestPreferences.parses(of: [names[2], names[3], names[4]]) == [0, 0, 0])
  }

  @Test func aSuiteThatDoesNotParseSaysSoWhenItIsShown() async throws {
    let base = TestPreferences.uniqueSuite()
    let names = ["a", "b-broken"].map { "\(base).\($0)" }
    try TestPreferences.write(["age": 20], toSuite: names[0])
    let broken = TestPreferences.file(ofSuite: names[1])
    try Data("<plist><dict><key>age</key>".utf8).write(to: broken)
    let (sources, canvas, session, screen) = firstPaint(of: names, rows: 10)
    #expect(TestPreferences.parses(of: names) == [1, 0])
    #expect(sources[1].suiteFile == nil, "nothing said about a suite not read")

    // Said in the paint that reads it: the header and the context line.
    for key: KeyPress in [.left, .down] { screen.draw(session.handle(key)) }
    #expect(
      [
        canvas.line(0).hasSuffix("[suite, UNREADABLE]"),
        canvas.line(8).hasPrefix(" No values read"),
      ]
        == [true, true], "\(canvas.line(0)) / \(canvas.line(8))")

    // The suite read after watching began wakes the editor when its file reads again.
    try PropertyListSerialization.data(fromPropertyList: ["age": 21], format: .xml, options: 0)
      .write(to: broken)
    #expect(await poll { sources[1].unreadableReason == nil })
    screen.draw(Damage())
    #expect(canvas.line(0).hasSuffix("[suite, LIVE]"), "\(canvas.line(0))")
  }

  /// Another process adds a key after the rows took the suite's keys and before they would
  /// have followed it (the suite merged it in memory then, telling no one of the rows): the key
  /// is shown without any later change.
  @Test func aKeyAddedWhileTheSuiteIsFirstReadIsShown() async throws {
    let name = TestPreferences.uniqueSuite()
    try TestPreferences.write(["first": 1], toSuite: name)
    let file = TestPreferences.file(ofSuite: name)
    SuiteReadProbe.afterTakingKeys.withLock {
      $0 = { suite in
        guard let suite = suite as? PropertyListDefaults,
          suite.fileURL.lastPathComponent == file.lastPathComponent
        else { return }
        _ = try? PropertyListFile(url: file).apply(["second": .set(2)])
        // Merged into the suite's memory (and its observers told) before the read goes on.
        pollBlocking { suite.persistentValue(forKey: "second") != nil }
      }
    }
    defer { SuiteReadProbe.afterTakingKeys.withLock { $0 = nil } }
    let (sources, canvas, _, screen) = firstPaint(of: [name], rows: 10)
    #expect(canvas.line(2).contains("first"), "\(canvas.line(2))")
    #expect(await poll { sources[0].rowCount == 2 }, "the key added in between")
    screen.draw(Damage())
    #expect(canvas.line(3).contains("second"), "\(canvas.line(3))")
  }

  /// The editor's first paint of the suites `names` of the test folder, each watched as the
  /// editor's loop watches every listed suite before its first paint.
  private func firstPaint(of names: [String], rows: Int) -> (
    [SuiteRows], MemoryCanvas, EditorSession, EditorScreen
  ) {
    let sources = names.map { SuiteRows(suite: $0, folder: TestPreferences.folder) }
    for source in sources { source.startWatching { job in Task { @MainActor in job() } } }
    let canvas = MemoryCanvas(rows: rows, columns: 100)
    let session = EditorSession(sources: sources)
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    return (sources, canvas, session, screen)
  }
}

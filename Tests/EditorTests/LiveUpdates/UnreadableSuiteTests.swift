import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import Synchronization
import TestSupport
import Testing

@testable import SettingsEditor

/// A suite file that stops parsing while it is shown: the header says `UNREADABLE`, the context
/// line says why, the last values stay (drawn stale), changes are refused with that reason and
/// the file is left alone; once it parses again the suite is `LIVE` with the new values.
@MainActor
@Suite struct UnreadableSuiteTests {
  @Test func aSuiteThatStopsParsingIsReportedThenRecovers() async throws {
    let (suite, writer) = try TestPreferences.suite(["age": 20])
    try writer.flush()  // the file exists before it is broken
    let file = TestPreferences.file(ofSuite: suite)
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in Task { @MainActor in job() } }
    // The first paint reads the suite: its file is known from then on.
    let (canvas, session, screen) = TestScreen.show(domain, rows: 10, columns: 100)
    let wakes = Mutex(0)
    let readability = try #require(domain.suiteFile).observeReadability {
      wakes.withLock { $0 += 1 }
    }
    defer { readability.cancel() }
    #expect(canvas.line(0).hasSuffix("[suite, LIVE]"))
    // Issue 42: the idle editor does not wake to look at the file; its suite wakes it.
    #expect(screen.nextDeadline == nil, "no timeout while nothing is scheduled")

    let garbage = Data("<plist><dict><key>age</key>".utf8)
    try garbage.write(to: file)
    #expect(await poll { domain.unreadableReason != nil })
    #expect(await poll { wakes.withLock { $0 } == 1 }, "one wake-up: the file stopped reading")
    #expect(screen.nextDeadline == nil)
    screen.draw(Damage())
    #expect(canvas.line(0).hasSuffix("[suite, UNREADABLE]"), "\(canvas.line(0))")
    #expect(canvas.line(2).hasSuffix("│  age   Int   20"), "the last values stay")
    #expect(canvas.style(row: 2, column: 30).contains(.dim), "drawn stale")
    #expect(
      canvas.line(8).hasPrefix(" Stale values: not a valid property list, left unchanged: "),
      "\(canvas.line(8))")

    screen.draw(session.handle(.enter))
    #expect(session.state.mode == .browsing, "no field opens")
    #expect(
      session.state.message?.text.hasPrefix(
        "age not saved: \(suite) is unreadable (not a valid property list, left unchanged: ")
        == true, "\(session.state.message?.text ?? "")")
    #expect(try Data(contentsOf: file) == garbage, "the malformed file is never overwritten")

    try PropertyListSerialization.data(fromPropertyList: ["age": 99], format: .xml, options: 0)
      .write(to: file)
    // The rows read the suite's values, which are new before the change's report is shown: wait
    // for the report (its values taken by the rows), which marks the row.
    #expect(await poll { domain.unreadableReason == nil && domain.valuesTaken == 1 })
    #expect(domain.row(at: 0).value == "99")
    #expect(await poll { wakes.withLock { $0 } == 2 }, "one more: the file reads again")
    screen.draw(Damage())
    #expect(canvas.line(0).hasSuffix("[suite, LIVE]"), "\(canvas.line(0))")
    #expect(canvas.line(2).hasSuffix("│~ age   Int   99"), "fresh, marked as changed elsewhere")
    #expect(!canvas.style(row: 2, column: 30).contains(.dim))
  }

  @Test func aSettingsObjectWhoseSuiteStopsParsingIsReportedToo() async throws {
    let suite = TestPreferences.uniqueSuite()
    let store = TestPreferences.writer(ofSuite: suite)
    let settings = EditorTypeSettings(userDefaults: store)
    settings.volume = 7
    try store.flush()
    let rows = SettingsObjectRows(AnySettings(settings))
    let (canvas, session, screen) = TestScreen.show(rows, rows: 24)
    #expect(canvas.line(0).hasSuffix("[object, LIVE]"))
    try Data("not a plist".utf8).write(to: TestPreferences.file(ofSuite: suite))
    #expect(await poll { rows.unreadableReason != nil })
    screen.draw(Damage())
    #expect(canvas.line(0).hasSuffix("[object, UNREADABLE]"), "\(canvas.line(0))")
    #expect(canvas.line(4).contains("volume    Int8           7"), "the last values stay")
    session.state.rowIndex = 2
    _ = session.handle(.character("d"))
    #expect(
      session.state.message?.text.hasPrefix("volume not saved: EditorTypeSettings is unreadable (")
        == true)
    #expect(settings.volume == 7)
  }

  /// Issue 22: the refusal of a change because the suite does not parse goes once the file
  /// parses again (it stayed on the status line until the next key).
  @Test func aRefusalBecauseTheFileDoesNotParseGoesWhenItParsesAgain() async throws {
    let (suite, writer) = try TestPreferences.suite(["age": 20])
    try writer.flush()
    let file = TestPreferences.file(ofSuite: suite)
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in Task { @MainActor in job() } }
    let (canvas, session, screen) = TestScreen.show(domain, rows: 10, columns: 100)
    try Data("<plist><dict><key>age</key>".utf8).write(to: file)
    #expect(await poll { domain.unreadableReason != nil })
    screen.draw(session.handle(.enter))
    #expect(
      session.state.message?.text.hasPrefix(
        "age not saved: \(suite) is unreadable (not a valid property") == true)
    #expect(canvas.line(8) != " age", "the message covers the status line")

    try PropertyListSerialization.data(fromPropertyList: ["age": 21], format: .xml, options: 0)
      .write(to: file)
    #expect(await poll { domain.unreadableReason == nil })
    screen.draw(Damage())
    #expect(session.state.message == nil)
    #expect(canvas.line(8) == " age", "\(canvas.line(8))")
  }

  /// Issue 22: a suite whose file has not parsed since the editor opened it says "No values
  /// read", not "Stale values" (it has none); once it parsed, a later break keeps stale ones.
  @Test func aFileThatNeverParsedSaysNoValuesRead() async throws {
    let suite = TestPreferences.uniqueSuite()
    let file = TestPreferences.file(ofSuite: suite)
    try Data("<plist><dict><key>age</key>".utf8).write(to: file)
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in Task { @MainActor in job() } }
    let (canvas, _, screen) = TestScreen.show(domain, rows: 10, columns: 100)
    #expect(canvas.line(0).hasSuffix("[suite, UNREADABLE]"), "\(canvas.line(0))")
    #expect(
      canvas.line(8).hasPrefix(" No values read: not a valid property list, left unchanged: "),
      "\(canvas.line(8))")

    try PropertyListSerialization.data(fromPropertyList: ["age": 21], format: .xml, options: 0)
      .write(to: file)
    #expect(await poll { domain.unreadableReason == nil })
    try Data("<plist><dict><key>age</key>".utf8).write(to: file)
    #expect(await poll { domain.unreadableReason != nil })
    screen.draw(Damage())
    #expect(
      canvas.line(8).hasPrefix(" Stale values: not a valid property list, left unchanged: "),
      "\(canvas.line(8))")
  }
}

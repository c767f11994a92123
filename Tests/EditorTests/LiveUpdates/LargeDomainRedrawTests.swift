import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import Synchronization
import TestSupport
import Testing

@testable import SettingsEditor

/// The counts behind the benchmark's editor row: one external key change in a 10,000-key suite
/// is one notification, one row redrawn and one frame.
@MainActor
@Suite struct LargeDomainRedrawTests {
  @Test func oneExternalChangeInATenThousandKeySuiteRedrawsOneRow() throws {
    let suite = TestPreferences.uniqueSuite()
    let key = { (index: Int) in "key-\(String(index + 100_000).dropFirst())" }
    let keys = (0..<10_000).map(key)
    let contents = try PropertyListSerialization.data(
      fromPropertyList: Dictionary(uniqueKeysWithValues: keys.map { ($0, "value of \($0)") }),
      format: .binary, options: 0)
    try contents.write(to: TestPreferences.file(ofSuite: suite))
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    var jobs = 0
    domain.startWatching { job in
      MainActor.assumeIsolated {
        jobs += 1
        job()
      }
    }
    let canvas = MemoryCanvas(rows: 40, columns: 120)
    let screen = EditorScreen(
      canvas: canvas, session: EditorSession(sources: [domain]), glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    let framesBefore = canvas.presentCount

    let writer = PropertyListDefaults(fileURL: URL(fileURLWithPath: domain.location))
    try writer.write("changed", forKey: key(2))
    screen.draw(Damage())

    #expect(jobs == 1, "one change notification reaches the editor")
    #expect(keys.indices.map { screen.redrawCount(source: 0, row: $0) }.reduce(0, +) == 1)
    #expect(screen.redrawCount(source: 0, row: 2) == 1)
    #expect(canvas.presentCount == framesBefore + 1)
    #expect(canvas.line(4).contains("changed"))
  }
}

/// Issue 42: another program's change of a large suite costs the editor in proportion to the
/// keys it changed: their values read, their rows built and drawn, and keys that appear or go
/// put in place or taken out of the lines one by one, not every key laid out again.
@MainActor
@Suite struct LargeDomainChangeCostTests {
  @Test func keysChangedAddedAndRemovedElsewhereCostWorkForThoseKeysOnly() throws {
    let suite = TestPreferences.uniqueSuite()
    let key = { (index: Int) in "key-\(String(index + 100_000).dropFirst())" }
    let count = 10_000
    try PropertyListSerialization.data(
      fromPropertyList: Dictionary(uniqueKeysWithValues: (0..<count).map { (key(2 * $0), "v") }),
      format: .binary, options: 0
    ).write(to: TestPreferences.file(ofSuite: suite))
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let (canvas, _, screen) = TestScreen.show(domain, rows: 40, columns: 120)
    #expect(domain.keysPlaced == count)
    let writer = PropertyListDefaults(fileURL: URL(fileURLWithPath: domain.location))
    let built = domain.rowsBuilt

    // A value changed: one key's values taken from the change report, none kept, no key placed,
    // its row built and drawn.
    try writer.write("changed", forKey: key(4))
    screen.draw(Damage())
    #expect(domain.valuesTaken == 1)
    #expect(domain.valuesHeld == 0)
    #expect(domain.keysPlaced == count)
    // The row drawn, the focused row for the status line's context and key bar and for the
    // focus's identity, and the changed row's key for its change report: 5, at any size.
    #expect(domain.rowsBuilt - built == 5)
    #expect(canvas.line(4).contains("changed"))

    // A key added between two others: placed alone, the rows below it move down.
    try writer.write("new", forKey: key(3))
    screen.draw(Damage())
    #expect(domain.valuesTaken == 2)
    #expect(domain.keysPlaced == count + 1)
    #expect(domain.rowCount == count + 1)
    #expect(canvas.line(4).contains(key(3)) && canvas.line(4).contains("new"))
    #expect(canvas.line(5).contains(key(4)) && canvas.line(5).contains("changed"))

    // A key removed: taken out alone.
    try writer.write(nil, forKey: key(2))
    screen.draw(Damage())
    #expect(domain.valuesTaken == 3)
    #expect(domain.valuesHeld == 0)
    #expect(domain.keysPlaced == count + 2)
    #expect(domain.rowCount == count)
    #expect(canvas.line(3).contains(key(3)))
    #expect(
      (0..<domain.rowCount).map { domain.path(at: $0) }
        == writer.exactPersistentValues.keys.sorted().map { [.key($0.string)] })
  }
}

/// The first paint of a large suite builds the rows on screen only, not one per key.
@MainActor
@Suite struct LargeDomainFirstPaintTests {
  @Test func firstPaintOfATenThousandKeySuiteBuildsOnlyTheVisibleRows() throws {
    let suite = TestPreferences.uniqueSuite()
    let values = Dictionary(
      uniqueKeysWithValues: (0..<10_000).map { ("key-\(100_000 + $0)", "value \($0)") })
    try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
      .write(to: TestPreferences.file(ofSuite: suite))
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    let canvas = MemoryCanvas(rows: 40, columns: 120)
    let screen = EditorScreen(
      canvas: canvas, session: EditorSession(sources: [domain]), glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    let visible = ScreenLayout.visibleCount(in: canvas.size)
    // The visible rows twice (the columns fit them, then they are painted) and the focused row
    // three times (status line, focus identity): 75 of 10,000.
    #expect(domain.rowsBuilt == 2 * visible + 3)
    #expect(canvas.line(2).contains("key-100000"))
    #expect(canvas.line(2 + visible - 1).contains("key-1000\(visible - 1)"))
  }
}

/// Issue 42: another program's change of one key of a large suite, read from the file: the
/// editor redraws that key's row only, takes that key's values from the change report and keeps
/// no value of its own afterwards (the suite keeps them).
@MainActor
@Suite struct OutsideChangeCostTests {
  @Test func anOutsideChangeOfOneKeyRedrawsOneRowAndKeepsNoValue() async throws {
    let suite = TestPreferences.uniqueSuite()
    let key = { (index: Int) in "key-\(String(index + 100_000).dropFirst())" }
    let count = 10_000
    let url = TestPreferences.file(ofSuite: suite)
    try PropertyListSerialization.data(
      fromPropertyList: Dictionary(uniqueKeysWithValues: (0..<count).map { (key($0), "v") }),
      format: .binary, options: 0
    ).write(to: url)
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    let (canvas, session, screen) = TestScreen.show(domain, rows: 40, columns: 120)
    session.history = nil
    // The loop's jobs wait here until the test runs them on this (the loop's) actor.
    let jobs = Mutex<[@MainActor @Sendable () -> Void]>([])
    let post: MainJobPoster = { job in jobs.withLock { $0.append(job) } }
    session.recordChanges(of: domain, post: post)
    domain.startWatching(post: post)
    #expect(domain.valuesHeld == 0)

    _ = try PropertyListFile(url: url).apply([key(2): .set("changed")])
    #expect(await poll { jobs.withLock { !$0.isEmpty } })
    for job in jobs.withLock({ $0 }) { job() }
    screen.draw(Damage())

    #expect((0..<count).map { screen.redrawCount(source: 0, row: $0) }.reduce(0, +) == 1)
    #expect(screen.redrawCount(source: 0, row: 2) == 1)
    #expect(canvas.line(4).contains("changed"))
    #expect(domain.valuesTaken == 1, "the changed key's values, from the change report")
    #expect(domain.valuesHeld == 0, "no value kept beside the suite's")
    let entry = try #require(session.changeLog.newestFirst().first)
    #expect(entry.change.key == key(2))
    #expect(entry.change.old as? String == "v")
    #expect(entry.change.new as? String == "changed")
    #expect(session.changeLog.newestFirst().count == 1)
  }
}

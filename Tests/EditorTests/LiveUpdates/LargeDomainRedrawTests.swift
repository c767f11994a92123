import Foundation
import ObservableDefaultsCore
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

import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore
@testable import SettingsEditor

/// A file opened by path that another program writes in place (`: > file; cat new > file`)
/// is empty for a moment: the editor must not show every row removed and back again.
@MainActor
@Suite struct LiveFileInPlaceTests {
  @Test func anEmptiedThenRewrittenFileRedrawsOnlyTheRowThatChanged() async throws {
    let values = Dictionary(uniqueKeysWithValues: (0..<30).map { ("key\($0)", "value \($0)") })
    let url = try TestPreferences.propertyListFile(values)
    let replacement = try TestPreferences.propertyListFile(
      values.merging(["key1": "one"]) { $1 })
    let domain = try PropertyListFileRows(file: url)
    // The second look comes after the rewrite, however slow the machine.
    domain.secondLookPause = 600_000_000
    domain.startWatching { job in Task { @MainActor in job() } }
    let (canvas, _, screen) = TestScreen.show(domain, rows: 14)
    let start = (0..<10).map { screen.redrawCount(source: 0, row: $0) }

    // Written in place, as a shell's `: > file; cat new > file` does: emptied, then written.
    let parses = PropertyListCounters.counts(for: url).parses
    try Data().write(to: url)
    #expect(await poll { PropertyListCounters.counts(for: url).parses > parses })
    #expect(domain.rowCount == 30, "the empty file is looked at again before its rows go")
    try Data(contentsOf: replacement).write(to: url)
    #expect(await poll { domain.storedValues["key1"] as? String == "one" })
    screen.draw(Damage())
    // Rows: key0, key1, key10, … ; key1's alone was redrawn, once.
    let counts = (0..<10).map { screen.redrawCount(source: 0, row: $0) - start[$0] }
    #expect(counts == [0, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    #expect(domain.rowCount == 30)
    #expect(canvas.line(3).hasSuffix("one"))
  }

  /// A file that really was emptied is shown empty, once a second look finds it still so.
  @Test func aFileLeftEmptyShowsNoRowsAfterASecondLook() async throws {
    let url = try TestPreferences.propertyListFile(["age": 20, "name": "x"])
    let domain = try PropertyListFileRows(file: url)
    domain.startWatching { job in Task { @MainActor in job() } }
    #expect(try ChildProcess.runCommand("sh", ["-c", ": > '\(url.path)'"]).status == 0)
    #expect(await poll { domain.rowCount == 0 })
    #expect(domain.storedValues.isEmpty)
  }
}

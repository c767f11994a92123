import Foundation
import Glibc

/// A 50 MB data value in a small suite of each format: another process sets it and flushes, until
/// this process's tracker fires; against the floor of the same run, writing the same bytes to a
/// new file, `fsync` and `rename` over the old one.
struct LargeValueMeasure {
  let workspace: Workspace
  let runs: Int
  static let bytes = 50_000_000

  func run(into table: ResultTable) {
    let floor = floorSamples()
    table.add(
      ResultRow(
        measure: "50 MB: write + fsync + rename of a new file (the floor)", samples: floor,
        unit: .milliseconds))
    let formats: [(String, PropertyListSerialization.PropertyListFormat)] = [
      ("binary", .binary), ("XML", .xml),
    ]
    for (name, format) in formats {
      let change = ExternalChangeMeasure(workspace: workspace).run(
        keys: 10, changes: runs, format: format, valueBytes: Self.bytes)
      let latencies = change.latencies
      table.add(
        ResultRow(
          measure: "50 MB value, \(name) suite: set + flush → other process's tracker, p50",
          samples: latencies, unit: .milliseconds,
          floor: ("write + fsync + rename of a new file", floor),
          target: Target(
            text: "≤ 2× the floor", isMet: latencies.median <= 2 * floor.median)))
      table.add(
        ResultRow(
          measure: "…the reader's resident memory after the changes "
            + "(\(Unit.megabytes.format(Double(change.residentBefore))) before)",
          samples: Samples([Double(change.residentAfter)]), unit: .megabytes))
    }
  }

  /// Writing `bytes` bytes to a new file, `fsync`, `rename` over the previous one.
  private func floorSamples() -> Samples {
    let bytes = [UInt8](repeating: 7, count: Self.bytes)
    let target = workspace.newFile("floor").path
    return timeRuns(runs: runs) { _ in writeFsyncRename(bytes, to: target) }
  }
}

import Foundation

/// A 1,000,000-key suite (string values of 20 characters) in each format: the editor's open to
/// first paint, the peak memory of opening it against the file's size, and a one-key change
/// between two processes.
struct MillionKeysMeasure {
  let workspace: Workspace
  let runs: Int
  static let keys = 1_000_000

  func run(into table: ResultTable) {
    let editor = EditorMeasure(workspace: workspace, runs: runs)
    let formats: [(String, PropertyListSerialization.PropertyListFormat)] = [
      ("binary", .binary), ("XML", .xml),
    ]
    for (name, format) in formats {
      let suite = "bench-million-\(format.rawValue)"
      let file = workspace.folder.appendingPathComponent(suite + ".plist")
      EditorMeasure.writeSuite(at: file, keys: Self.keys, valueLength: 20, format: format)
      editor.runOpen(
        suite: suite, label: "a 1,000,000-key \(name) suite", fileSize: BenchmarkRun.size(of: file),
        target: 2.5, into: table)
      let change = ExternalChangeMeasure(workspace: workspace).run(
        keys: Self.keys, changes: 20, format: format
      ).latencies
      table.add(
        ResultRow(
          measure: "1,000,000 keys, \(name): one-key change, writer's set → reader's tracker, p50",
          samples: change, unit: .milliseconds,
          target: Target(text: "p50 ≤ 1 s", isMet: change.median <= 1)))
    }
  }
}

import Foundation
import ObservableDefaults

/// `settings-editor write` of one key into a binary suite of 100,000 and 1,000,000 keys (a new
/// process each), against the floor of the same run: reading the file, writing its bytes to a new
/// file, `fsync` and `rename` over it (what a write must at least do to the file).
struct OneShotWriteMeasure {
  let workspace: Workspace
  let runs: Int

  func run(into table: ResultTable) {
    for keys in [100_000, 1_000_000] {
      let suite = "bench-oneshot-\(keys)"
      let file = PreferencesDirectory.fileURL(forSuite: suite)
      try? FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      EditorMeasure.writeSuite(at: file, keys: keys, valueLength: 20)
      let floor = readWriteFsyncRename(file)
      let editor = DconfBaseline.editor.path
      let key = EditorMeasure.key(2)
      let writes = timeRuns(runs: runs) { run in
        guard SpawnedProgram.run(editor, ["write", suite, key, "-string", "one-shot-\(run)"]) == 0
        else { abort("settings-editor write \(suite) failed") }
      }
      table.add(
        ResultRow(
          measure: "\(keys.formatted()) keys: one-shot `settings-editor write` of one key "
            + "(new process)",
          samples: writes, unit: .milliseconds,
          baseline: ("floor: read + write + fsync + rename of the file", floor),
          target: Target(text: "≤ 3× the floor", isMet: writes.median <= 3 * floor.median)))
    }
  }

  /// Reading `file`, writing its bytes to a new file beside it, `fsync`, `rename` over a copy.
  private func readWriteFsyncRename(_ file: URL) -> Samples {
    let target = workspace.newFile("oneshot-floor").path
    return timeRuns(runs: runs) { _ in
      guard let bytes = FileManager.default.contents(atPath: file.path) else {
        abort("floor: cannot read \(file.path)")
      }
      writeFsyncRename(bytes, to: target)
    }
  }
}

import Foundation
import ObservableDefaults
import Observation

/// `settings-editor write` of one key (a new process that writes and exits) into suites of
/// 100,000 and 1,000,000 keys in each format, against the floor of the same run: reading the
/// file, writing its bytes to a new file, `fsync` and `rename` over it. At 100,000 keys also
/// the change seen by a watching process (this one's tracker), against the floor plus one more
/// read of the file (what the watcher must at least do).
struct OneShotWriteMeasure {
  let workspace: Workspace
  let runs: Int
  static let sizes = [100_000, 1_000_000]

  func run(into table: ResultTable) {
    let formats: [(String, PropertyListSerialization.PropertyListFormat)] = [
      ("binary", .binary), ("XML", .xml),
    ]
    for keys in Self.sizes {
      for (name, format) in formats {
        let suite = "bench-one-shot-\(keys)-\(format.rawValue)"
        let file = PreferencesDirectory.fileURL(forSuite: suite)
        EditorMeasure.writeSuite(at: file, keys: keys, valueLength: 20, format: format)
        let label = "\(keys.formatted()) keys, \(name)"
        let floor = readWriteFsyncRename(file)
        table.add(
          ResultRow(
            measure: "\(label): read + write + fsync + rename of the file (the floor)",
            samples: floor, unit: .milliseconds))
        let writes = timeRuns(runs: runs) { run in
          write(suite: suite, key: EditorMeasure.key(2), value: "one-shot-\(run)")
        }
        table.add(
          ResultRow(
            measure: "\(label): `settings-editor write` of one key (new process)",
            samples: writes, unit: .milliseconds, floor: ("read + write + fsync + rename", floor),
            target: Target(text: "≤ 3× the floor", isMet: writes.median <= 3 * floor.median)))
        guard keys == 100_000 else { continue }
        let watched = watchedWrites(suite: suite, file: file)
        let watchFloor = Samples(floor.values.map { $0 + readTime(file) })
        table.add(
          ResultRow(
            measure: "\(label): `settings-editor write` → watching process's tracker, p50",
            samples: watched, unit: .milliseconds,
            floor: ("read + write + fsync + rename + one more read", watchFloor),
            target: Target(
              text: "≤ 5× the floor", isMet: watched.median <= 5 * watchFloor.median)))
      }
    }
  }

  /// Runs `settings-editor write SUITE KEY -string VALUE` to its end.
  private func write(suite: String, key: String, value: String) {
    let status = SpawnedProgram.run(
      DconfBaseline.editor.path, ["write", suite, key, "-string", value])
    guard status == 0 else { abort("settings-editor write exited with \(status)") }
  }

  /// From the start of `settings-editor write` of the key `name` until this process's tracker
  /// of `name` fires.
  private func watchedWrites(suite: String, file: URL) -> Samples {
    let store = PropertyListDefaults(fileURL: file)
    let settings = BenchmarkSettings(userDefaults: store)
    let fired = FiredStamp()
    var latencies: [Double] = []
    for index in 0..<(runs + 1) {  // the first warms up
      withObservationTracking {
        _ = settings.name
      } onChange: {
        fired.record()
      }
      let start = monotonicNanoseconds()
      write(suite: suite, key: "name", value: "watched-\(index)")
      guard let seen = fired.wait(seconds: 30) else {
        abort("the write \(index) was not observed within 30 s")
      }
      if index > 0 { latencies.append(Double(Int64(bitPattern: seen &- start)) / 1e9) }
    }
    return Samples(latencies)
  }

  /// Reading `file` whole, then the floor of writing its bytes over it (``writeFsyncRename``).
  private func readWriteFsyncRename(_ file: URL) -> Samples {
    timeRuns(runs: runs) { _ in
      guard let bytes = FileManager.default.contents(atPath: file.path) else {
        abort("floor: cannot read \(file.path)")
      }
      writeFsyncRename(bytes, to: file.path)
    }
  }

  /// The time of one read of `file` whole (the median of the runs).
  private func readTime(_ file: URL) -> Double {
    timeRuns(runs: runs) { _ in blackHole(FileManager.default.contents(atPath: file.path)) }.median
  }
}

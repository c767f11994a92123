import Foundation
import ObservableDefaults

/// 10,000 writes to one `@ObservableCloud` property on the embedded container (no flush: the
/// device saves on its own queue meanwhile), against the same burst to an
/// `@ObservableDefaults` property in the same run.
struct CloudWriteMeasure {
  let workspace: Workspace
  let runs: Int
  let writes = 10_000

  func run(into table: ResultTable) {
    let cloud = Samples(
      Array(
        (0...runs).map { run in
          let settings = BenchmarkCloudSettings(store: Self.store(in: workspace.folder, run: run))
          return Self.perWrite(writes) { settings.counter = run * writes + $0 }
        }.dropFirst()))  // run 0 warms up
    let defaults = Samples(
      Array(
        (0...runs).map { run in
          let settings = BenchmarkSettings(
            userDefaults: PropertyListDefaults(fileURL: workspace.newFile("cloud-baseline")))
          return Self.perWrite(writes) { settings.counter = run * writes + $0 }
        }.dropFirst()))
    table.add(
      ResultRow(
        measure: "`@ObservableCloud` property write (no flush), per write", samples: cloud,
        unit: .microseconds,
        baseline: ("`@ObservableDefaults` write", defaults),
        target: Target(
          text: "≤ 1.5× `@ObservableDefaults`", isMet: cloud.median <= 1.5 * defaults.median)))
  }

  /// The seconds per call of `write` over `count` calls (given 1…count).
  private static func perWrite(_ count: Int, _ write: (Int) -> Void) -> Double {
    let start = monotonicNanoseconds()
    for index in 1...count { write(index) }
    return Double(monotonicNanoseconds() - start) / 1e9 / Double(count)
  }

  /// A device of a fresh embedded container for `run` under `folder`.
  private static func store(in folder: URL, run: Int) -> NSUbiquitousKeyValueStore {
    NSUbiquitousKeyValueStore(
      backend: EmbeddedCloudBackend(
        root: folder.appendingPathComponent("cloud-write"), container: "run-\(run)"))
  }

  /// The burst alone, for instruction counts (`valgrind --tool=callgrind`): `writes` writes to
  /// one cloud property on a container under `folder`; prints the time per write.
  static func runWriter(folder: String, writes: Int) {
    let settings = BenchmarkCloudSettings(
      store: store(in: URL(fileURLWithPath: folder), run: 0))
    let perWrite = perWrite(writes) { settings.counter = $0 }
    print("\(writes) cloud writes: \(String(format: "%.0f", perWrite * 1e9)) ns per write")
  }
}

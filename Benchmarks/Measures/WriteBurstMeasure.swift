import Foundation
import ObservableDefaults

/// 10,000 writes to one persisted property, then a flush; against Foundation's `set` burst
/// followed by one `synchronize()`.
struct WriteBurstMeasure {
  let workspace: Workspace
  let runs: Int
  let writes = 10_000

  func run(into table: ResultTable) {
    var perWrite: [Double] = []
    var flushes: [Double] = []
    for run in 0...runs {  // run 0 warms up
      let store = PropertyListDefaults(fileURL: workspace.newFile("burst"))
      let settings = BenchmarkSettings(userDefaults: store)
      let base = run * writes
      let start = monotonicNanoseconds()
      for index in 1...writes { settings.counter = base + index }
      let burstEnd = monotonicNanoseconds()
      do { try store.flush() } catch { abort("flush failed: \(error)") }
      if run > 0 {
        perWrite.append(seconds(since: start) / Double(writes))
        flushes.append(seconds(since: burstEnd))
      }
      verify(store.fileURL, holds: base + writes)
    }
    let burst = Samples(perWrite)
    let onDisk = Samples(flushes)

    guard let foundation = UserDefaults(suiteName: "bench.burst.foundation") else {
      abort("no Foundation suite")
    }
    let foundationSamples = timeRuns(runs: runs, operations: writes) { run in
      for index in 1...writes { foundation.set(run * writes + index, forKey: "counter") }
      foundation.synchronize()
    }
    table.add(
      ResultRow(
        measure: "Burst of 10,000 writes + flush, per write", samples: burst, unit: .microseconds,
        baseline: ("Foundation `set` ×10,000 + `synchronize()`", foundationSamples),
        target: Target(text: "≤ 1 µs", isMet: burst.median <= 1e-6)))
    table.add(
      ResultRow(
        measure: "…of which on disk after the burst (flush)", samples: onDisk, unit: .milliseconds,
        value: onDisk.max,
        target: Target(text: "≤ 100 ms (max shown)", isMet: onDisk.max <= 0.1)))
  }

  /// The burst alone, for instruction counts (`valgrind --tool=callgrind`): `writes` writes to one
  /// property of a suite in `file`, then a flush; prints the time per write.
  static func runWriter(file: String, writes: Int) {
    let store = PropertyListDefaults(fileURL: URL(fileURLWithPath: file))
    let settings = BenchmarkSettings(userDefaults: store)
    let start = monotonicNanoseconds()
    for index in 1...writes { settings.counter = index }
    do { try store.flush() } catch { abort("burst-writer: \(error)") }
    let perWrite = Double(monotonicNanoseconds() - start) / Double(writes)
    print("\(writes) writes + flush: \(String(format: "%.0f", perWrite)) ns per write")
  }

  /// Stops the benchmark unless the file holds `counter` = `value`.
  private func verify(_ file: URL, holds value: Int) {
    let stored = (try? PropertyListFile(url: file).read())?.values["counter"] as? Int
    if stored != value {
      abort("burst: the file holds \(String(describing: stored)), not \(value)")
    }
  }
}

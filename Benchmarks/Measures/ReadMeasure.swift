import Foundation
import ObservableDefaults

/// Reading one persisted property, against a plain `@Observable` property and Foundation's
/// `UserDefaults.string(forKey:)` read in the same run.
struct ReadMeasure {
  let workspace: Workspace
  let runs: Int

  func run(into table: ResultTable) {
    let settings = BenchmarkSettings(
      userDefaults: PropertyListDefaults(fileURL: workspace.newFile("read")))
    settings.name = "Observable"
    let plain = PlainSettings()
    plain.name = "Observable"
    // XDG_CONFIG_HOME points into the workspace (set in main before Foundation read it).
    guard let foundation = UserDefaults(suiteName: "bench.read.foundation") else {
      abort("no Foundation suite")
    }
    foundation.set("Observable", forKey: "name")

    let reads = 1_000_000
    let persisted = timeRuns(runs: runs, operations: reads) { _ in
      var total = 0
      for _ in 0..<reads { total &+= settings.name.utf8.count }
      blackHole(total)
    }
    let observable = timeRuns(runs: runs, operations: reads) { _ in
      var total = 0
      for _ in 0..<reads { total &+= plain.name.utf8.count }
      blackHole(total)
    }
    let foundationReads = 100_000
    let foundationSamples = timeRuns(runs: runs, operations: foundationReads) { _ in
      var total = 0
      for _ in 0..<foundationReads { total &+= foundation.string(forKey: "name")?.utf8.count ?? 0 }
      blackHole(total)
    }

    let ratio = persisted.median / observable.median
    table.add(
      ResultRow(
        measure: "Read of an `@ObservableDefaults` property", samples: persisted,
        unit: .nanoseconds,
        baseline: ("plain `@Observable`", observable),
        target: Target(text: "≤ 1.2× `@Observable`", isMet: ratio <= 1.2)))
    addWriteRow(settings: settings, plain: plain, to: table)
    table.add(
      ResultRow(
        measure: "Read of an `@ObservableDefaults` property", samples: persisted,
        unit: .nanoseconds,
        baseline: ("Foundation `string(forKey:)`", foundationSamples),
        target: Target(
          text: "far below Foundation", isMet: persisted.median * 10 < foundationSamples.median)))
  }

  /// A write of a new value without observers (two values in turn, as short strings that need
  /// no allocation), against the same write of the plain `@Observable` property.
  private func addWriteRow(
    settings: BenchmarkSettings, plain: PlainSettings, to table: ResultTable
  ) {
    let writes = 100_000
    let values = ["Observable-a", "Observable-b"]
    let persisted = timeRuns(runs: runs, operations: writes) { _ in
      for index in 0..<writes { settings.name = values[index & 1] }
    }
    let observable = timeRuns(runs: runs, operations: writes) { _ in
      for index in 0..<writes { plain.name = values[index & 1] }
    }
    table.add(
      ResultRow(
        measure: "Write of an `@ObservableDefaults` property (new value, no observers)",
        samples: persisted, unit: .nanoseconds, baseline: ("plain `@Observable`", observable),
        target: Target(
          text: "≤ 1.5× `@Observable`", isMet: persisted.median <= 1.5 * observable.median)))
  }
}

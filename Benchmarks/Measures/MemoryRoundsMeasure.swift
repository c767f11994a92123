import Foundation
import ObservableDefaults

/// A writer that sets a 5 MB string in a binary suite and flushes it, 1,000 rounds in one
/// process: its resident memory after round 100 and after round 1,000. A flat writer grows by
/// nothing per round once its buffers are sized (the issue 42 run grew 95 → 105 MB). Measured in
/// a process of its own (``ProcessOfItsOwn``).
struct MemoryRoundsMeasure {
  let workspace: Workspace
  static let bytes = 5_000_000
  static let rounds = 1_000

  func run(into table: ResultTable) {
    let figures = ProcessOfItsOwn.figures(of: "memory", workspace: workspace)
    guard figures.count == 2 else { abort("memory: the worker reported \(figures)") }
    let (afterHundred, after) = (figures[0], figures[1])
    let perRound = Double(after - afterHundred) / Double(Self.rounds - 100)
    table.add(
      ResultRow(
        measure: "5 MB string, binary suite: writer's resident memory after 1,000 set + flush "
          + "rounds (\(Unit.megabytes.format(Double(afterHundred))) after 100)",
        samples: Samples([Double(after)]), unit: .megabytes,
        target: Target(
          text: "no growth per round (≤ 4 KB; \(Unit.bytes.format(perRound)) per round)",
          isMet: perRound <= 4096)))
  }

  /// The writer's rounds, in this process: its resident memory after round 100 and after the
  /// last, in bytes.
  func measure() -> [Int] {
    let store = PropertyListDefaults(fileURL: workspace.newFile("rounds"))
    let settings = BenchmarkSettings(userDefaults: store)
    let filler = String(repeating: "x", count: Self.bytes - 8)
    var afterHundred = 0
    for round in 1...Self.rounds {
      settings.name = String(format: "%08d", round) + filler
      do { try store.flush() } catch { abort("rounds: flush: \(error)") }
      if round == 100 { afterHundred = residentMemory() }
    }
    return [afterHundred, residentMemory()]
  }
}

import Foundation
import ObservableDefaults

/// Memory that stays flat (issue 42, item 6): the resident memory of a reader of a 100,000-key
/// suite over 100 changes made by another process, against its memory after the first read; and
/// that of a writer setting a 5 MB string in a binary suite and flushing it, 1,000 rounds in one
/// process, per round after its buffers are sized (round 100).
struct FlatMemoryMeasure {
  let workspace: Workspace
  /// The writer's value, in bytes.
  static let valueBytes = 5_000_000
  /// The writer's rounds, and the round after which its buffers are sized.
  static let rounds = 1_000
  static let sizedAfter = 100

  func run(into table: ResultTable) {
    let change = ExternalChangeMeasure(workspace: workspace).run(keys: 100_000, changes: 100)
    table.add(
      ResultRow(
        measure: "100,000 keys: reader's resident memory after 100 changes by another process "
          + "(\(Unit.megabytes.format(Double(change.residentBefore))) after 5)",
        samples: Samples([Double(change.residentAfter)]), unit: .megabytes,
        baseline: ("after the first read", Samples([Double(change.residentAfterOpen)])),
        target: Target(
          text: "≤ +10 % (\(String(format: "%+.1f %%", change.residentGrowth)))",
          isMet: change.residentGrowth <= 10)))

    let (afterSized, after) = writerRounds()
    let perRound = Double(after - afterSized) / Double(Self.rounds - Self.sizedAfter)
    table.add(
      ResultRow(
        measure: "5 MB string, binary suite: writer's resident memory after 1,000 set + flush "
          + "rounds (\(Unit.megabytes.format(Double(afterSized))) after 100)",
        samples: Samples([Double(after)]), unit: .megabytes,
        target: Target(
          text: "no growth per round (≤ 4 KB; \(Unit.bytes.format(perRound)) per round)",
          isMet: perRound <= 4096)))
  }

  /// The writer's resident memory after round ``sizedAfter`` and after the last round.
  private func writerRounds() -> (afterSized: Int, after: Int) {
    let store = PropertyListDefaults(fileURL: workspace.newFile("flat-memory-writer"))
    let settings = BenchmarkSettings(userDefaults: store)
    let filler = String(repeating: "x", count: Self.valueBytes - 8)
    var afterSized = 0
    for round in 1...Self.rounds {
      settings.name = String(format: "%08d", round) + filler
      do { try store.flush() } catch { abort("flat-memory writer: flush: \(error)") }
      if round == Self.sizedAfter { afterSized = residentMemory() }
    }
    return (afterSized, residentMemory())
  }
}

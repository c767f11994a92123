import Foundation
import ObservableDefaults

/// A reader's memory that stays flat (issue 42, item 6): the resident memory of a reader of a
/// 100,000-key suite over 100 changes made by another process, against its memory after the
/// first read. (The writer's side, 1,000 rounds of a 5 MB value, is ``MemoryRoundsMeasure``.)
struct FlatMemoryMeasure {
  let workspace: Workspace

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
  }
}

import Foundation
import ObservableDefaults

/// A reader's memory that stays flat (issue 42, item 6): the resident memory of a reader of a
/// 100,000-key suite over 100 changes made by another process, against its memory after the
/// first read, measured in a process of its own (``ProcessOfItsOwn``). (The writer's side, 1,000
/// rounds of a 5 MB value, is ``MemoryRoundsMeasure``.)
struct FlatMemoryMeasure {
  let workspace: Workspace

  func run(into table: ResultTable) {
    let figures = ProcessOfItsOwn.figures(of: "flat-memory", workspace: workspace)
    guard figures.count == 3 else { abort("flat-memory: the worker reported \(figures)") }
    let (afterOpen, before, after) = (figures[0], figures[1], figures[2])
    let growth = Double(after - before) / Double(before) * 100
    table.add(
      ResultRow(
        measure: "100,000 keys: reader's resident memory after 100 changes by another process "
          + "(\(Unit.megabytes.format(Double(before))) after 5)",
        samples: Samples([Double(after)]), unit: .megabytes,
        baseline: ("after the first read", Samples([Double(afterOpen)])),
        target: Target(
          text: "≤ +10 % (\(String(format: "%+.1f %%", growth)))",
          isMet: growth <= 10)))
  }

  /// The reader's changes, in this process: its resident memory after the first read, before the
  /// 100 measured changes and after them, in bytes.
  func measure() -> [Int] {
    let change = ExternalChangeMeasure(workspace: workspace).run(keys: 100_000, changes: 100)
    return [change.residentAfterOpen, change.residentBefore, change.residentAfter]
  }
}

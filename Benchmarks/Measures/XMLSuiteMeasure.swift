import Foundation
import ObservableDefaults

/// XML suites (what Foundation writes for a new suite) against binary ones of the same keys, in
/// the same run: a one-key change from another process to this one's tracker, set + flush, and
/// opening a 100,000-key suite.
struct XMLSuiteMeasure {
  let workspace: Workspace
  let runs: Int

  func run(into table: ResultTable) {
    let scale = ScaleMeasure(workspace: workspace, runs: runs)
    let external = ExternalChangeMeasure(workspace: workspace)
    let binary = external.run(keys: 10_000, changes: 200, format: .binary).latencies
    let xml = external.run(keys: 10_000, changes: 200, format: .xml).latencies
    table.add(
      ResultRow(
        measure: "XML suite, 10,000 keys: one-key change, writer → other process's tracker, p50",
        samples: xml, unit: .milliseconds, baseline: ("binary suite, p50", binary),
        target: Target(
          text: "≤ 1.5× binary", isMet: xml.median <= 1.5 * binary.median)))
    let (xmlP99, binaryP99) = (xml.percentile(99), binary.percentile(99))
    table.add(
      ResultRow(
        measure: "…p99", samples: xml, unit: .milliseconds, value: xmlP99,
        baseline: ("binary suite, p99", Samples([binaryP99])),
        target: Target(text: "≤ 20 ms", isMet: xmlP99 <= 0.020)))
    let xmlSet = scale.openAndSet(keys: 10_000, format: .xml).set
    let binarySet = scale.openAndSet(keys: 10_000, format: .binary).set
    table.add(
      ResultRow(
        measure: "XML suite, 10,000 keys: set one key + flush", samples: xmlSet,
        unit: .milliseconds, baseline: ("binary suite", binarySet),
        target: Target(text: "≤ 1.5× binary", isMet: xmlSet.median <= 1.5 * binarySet.median)))
    let xmlOpen = scale.openAndSet(keys: 100_000, format: .xml).open
    let binaryOpen = scale.openAndSet(keys: 100_000, format: .binary).open
    table.add(
      ResultRow(
        measure: "XML suite, 100,000 keys: open (read + parse, in process)", samples: xmlOpen,
        unit: .milliseconds, baseline: ("binary suite", binaryOpen)))
    let large = external.run(keys: 100_000, changes: 50, format: .xml).latencies
    table.add(
      ResultRow(
        measure: "XML suite, 100,000 keys: one-key change, p50", samples: large,
        unit: .milliseconds, target: Target(text: "≤ 300 ms", isMet: large.median <= 0.3)))
  }
}

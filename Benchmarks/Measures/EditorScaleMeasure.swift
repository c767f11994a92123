import Foundation
import ObservableDefaults

/// The editor on a 100,000- and a 1,000,000-key suite (issue 42): another program's write of one
/// key (set, then flush) to the editor's first byte of the redraw, against the library's own
/// change at the same size (writer's set → reader's tracker, ``ExternalChangeMeasure``) in the
/// same run; and the editor's resident memory after 100 such changes against after its first
/// paint and against after the first change.
struct EditorScaleMeasure {
  let workspace: Workspace
  let runs: Int
  /// Outside changes before the editor's memory is read again.
  static let changes = 100

  func run(into table: ResultTable) {
    for (keys, label) in [(100_000, "100,000"), (1_000_000, "1,000,000")] {
      let own = ExternalChangeMeasure(workspace: workspace).run(keys: keys, changes: runs)
        .latencies
      let suite = "bench-scale-\(keys)"
      let file = EditorMeasure.writeSuite(suite, keys: keys, valueLength: 20, in: workspace)
      let session = EditorMeasure.EditorSession(suite: suite, workspace: workspace)
      guard session.firstPaint(timeout: 120) != nil else { abort("the editor drew nothing") }
      let painted = session.residentBytes
      let writer = PropertyListDefaults(fileURL: file)
      var latencies: [Double] = []
      var afterFirst = painted
      for index in 0...Self.changes {  // the first change warms up
        let latency = EditorChangeLatencyMeasure.latency(
          of: session, writing: "changed-\(index)", with: writer)
        if index == 0 { afterFirst = session.residentBytes }
        if index > 0, latencies.count < runs { latencies.append(latency) }
      }
      let after = session.residentBytes
      _ = session.quit()
      let editor = Samples(latencies)
      table.add(
        ResultRow(
          measure: "Editor, \(label)-key suite: one outside change → on screen, p50",
          samples: editor, unit: .milliseconds,
          baseline: ("the library's own change (set → tracker), p50", own),
          target: Target(text: "≤ 1.2× own change", isMet: editor.median <= 1.2 * own.median)))
      let growth = Samples([after])
      table.add(
        ResultRow(
          measure: "…editor's resident memory after \(Self.changes) outside changes",
          samples: growth, unit: .megabytes, baseline: ("first paint", Samples([painted])),
          target: Target(text: "≤ 1.1× first paint", isMet: after <= 1.1 * painted)))
      // Where the growth comes from: the first change (the suite's first re-read) or each one.
      table.add(
        ResultRow(
          measure: "…editor's resident memory after \(Self.changes) outside changes",
          samples: growth, unit: .megabytes,
          baseline: ("after the first outside change", Samples([afterFirst])),
          target: Target(text: "≤ 1.1× after the first", isMet: after <= 1.1 * afterFirst)))
    }
  }
}

import Foundation
import ObservableDefaults

/// The time from another program's write of one key (set, then flush) to the editor's first
/// byte of the redraw, in a 100,000-key property list shown as a suite and as a file opened by
/// path (`settings-editor --file`), in the same run.
struct EditorChangeLatencyMeasure {
  let workspace: Workspace
  let runs: Int
  let keys = 100_000

  func run(into table: ResultTable) {
    let suite = "bench-latency-100k"
    let suiteFile = EditorMeasure.writeSuite(suite, keys: keys, valueLength: 20, in: workspace)
    let byPath = workspace.folder.appendingPathComponent("by-path-100k.plist")
    EditorMeasure.writeSuite(at: byPath, keys: keys, valueLength: 20)
    let suiteSamples = latencies(
      of: EditorMeasure.EditorSession(suite: suite, workspace: workspace), writing: suiteFile)
    let fileSamples = latencies(
      of: EditorMeasure.EditorSession(worker: "editor-file", byPath.path, workspace: workspace),
      writing: byPath)
    table.add(
      ResultRow(
        measure: "Editor, 100,000-key suite: one outside change → redraw, p50",
        samples: suiteSamples, unit: .milliseconds))
    table.add(
      ResultRow(
        measure: "Editor, the same keys in a file opened by path: one outside change → redraw, p50",
        samples: fileSamples, unit: .milliseconds, baseline: ("the suite", suiteSamples),
        target: Target(
          text: "≤ 1.2× the suite", isMet: fileSamples.median <= 1.2 * suiteSamples.median)))
  }

  /// The seconds from the start of each write of a key on screen to the first byte the editor
  /// sends after it (the first write warms up).
  private func latencies(of session: EditorMeasure.EditorSession, writing file: URL) -> Samples {
    guard session.firstPaint(timeout: 60) != nil else { abort("the editor drew nothing") }
    let writer = PropertyListDefaults(fileURL: file)
    var samples: [Double] = []
    for index in 0...runs {
      let latency = Self.latency(of: session, writing: "changed-\(index)", with: writer)
      if index > 0 { samples.append(latency) }
    }
    _ = session.quit()
    return Samples(samples)
  }

  /// The seconds from the start of `writer`'s write of `value` to the key on screen (the third
  /// row) to the first byte the editor sends after it; returns once the editor is quiet again.
  static func latency(
    of session: EditorMeasure.EditorSession, writing value: String,
    with writer: PropertyListDefaults
  ) -> Double {
    let offset = session.terminal.received.count
    let start = monotonicNanoseconds()
    writer.set(value, forKey: EditorMeasure.key(2))
    do { try writer.flush() } catch { abort("cannot write \(writer.fileURL.path): \(error)") }
    guard let redrawn = session.terminal.read(from: offset, timeout: 30) else {
      abort("the editor did not show the change within 30 s")
    }
    session.terminal.readUntilQuiet(0.2)
    return Double(redrawn - start) / 1e9
  }
}

import Foundation

/// One run of every selected measure, printing the table at the end.
struct BenchmarkRun {
  let options: BenchmarkOptions

  /// The fixture property lists of the package's tests (`Tests/Fixtures/plists`).
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests/Fixtures/plists")

  @MainActor
  func run() {
    let workspace: Workspace
    do { workspace = try Workspace() } catch { abort("no temporary folder: \(error)") }
    defer { workspace.remove() }

    let table = ResultTable()
    let runs = options.runs
    let loadBefore = Self.loadAverage()
    if options.includes("read") { ReadMeasure(workspace: workspace, runs: runs).run(into: table) }
    if options.includes("start") { StartupMeasure(runs: runs).run(into: table) }
    if options.includes("burst") {
      WriteBurstMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("cloud-write") {
      CloudWriteMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("xml") {
      XMLSuiteMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("scale") { ScaleMeasure(workspace: workspace, runs: runs).run(into: table) }
    if options.includes("one-shot") {
      OneShotWriteMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("watch") {
      WatchChangeMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    let editor = EditorMeasure(workspace: workspace, runs: runs)
    if options.includes("editor") { editor.runExternalChange(into: table) }
    if options.includes("editor-latency") {
      EditorChangeLatencyMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("editor-scale") {
      EditorScaleMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("editor-search") {
      EditorSearchMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("schemas") {
      SchemaListMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("open") {
      let large = EditorMeasure.writeSuite(
        "bench-open-100k", keys: 100_000, valueLength: 80, in: workspace)
      editor.runOpen(
        suite: "bench-open-100k", label: "a 100,000-key suite", fileSize: Self.size(of: large),
        into: table)
      let fixture = largestFixture()
      let copy = workspace.folder.appendingPathComponent("bench-fixture.plist")
      do { try FileManager.default.copyItem(at: fixture, to: copy) } catch {
        abort("cannot copy \(fixture.path): \(error)")
      }
      editor.runOpen(
        suite: "bench-fixture", label: "the largest fixture (\(fixture.lastPathComponent))",
        fileSize: Self.size(of: copy), into: table)
    }
    if options.includes("million") {
      MillionKeysMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("large-value") {
      LargeValueMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("memory") { MemoryRoundsMeasure(workspace: workspace).run(into: table) }
    if options.includes("flat-memory") { FlatMemoryMeasure(workspace: workspace).run(into: table) }
    if options.includes("writers") {
      ConcurrentWritersMeasure(workspace: workspace, runs: runs).run(into: table)
    }
    if options.includes("cloud") {
      CloudSyncMeasure(workspace: workspace, changes: 500, runs: runs).run(into: table)
    }
    if options.includes("cloud-scale") {
      CloudScaleMeasure(
        workspace: workspace, deviceCounts: options.deviceCounts, changes: 50,
        engines: [.nats, .etcd]
      ).run(into: table)
    }
    if options.includesBuild { BuildMeasure(runs: 3).run(into: table) }  // ~2 min per run

    print(
      "Runs per measure: \(runs) (after warm-up); \(ProcessInfo.processInfo.activeProcessorCount) cores; "
        + "load average (1, 5, 15 min) at the start: \(loadBefore), at the end: \(Self.loadAverage()).\n"
    )
    print(table.markdown())
  }

  /// The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`), e.g. `1.52 1.31 0.97`.
  private static func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }

  /// The largest file among the shared fixtures.
  private func largestFixture() -> URL {
    let files =
      (try? FileManager.default.contentsOfDirectory(
        at: Self.fixtures, includingPropertiesForKeys: nil)) ?? []
    guard
      let largest = files.filter({ $0.pathExtension == "plist" }).max(by: {
        Self.size(of: $0) < Self.size(of: $1)
      })
    else { abort("no fixtures in \(Self.fixtures.path)") }
    return largest
  }

  /// The size of `file` in bytes (0 when it cannot be read).
  static func size(of file: URL) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
  }
}

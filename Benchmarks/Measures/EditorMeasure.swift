import Foundation
import ObservableDefaults
import SettingsEditor

/// The editor (its public `SettingsEditor`, run by a worker process on a pseudo-terminal): bytes
/// sent to the terminal and rows addressed for one external key change, against the full first
/// paint; and the time and memory to open a large domain to its first paint.
struct EditorMeasure {
  let workspace: Workspace
  let runs: Int
  static let size = (rows: 40, columns: 120)
  /// Text of the key bar, the last line the first paint draws.
  private static let keyBarMarker = "q quit"

  /// One external change in a 10,000-key domain: bytes and rows against a full redraw.
  func runExternalChange(into table: ResultTable) {
    let suite = "bench-editor-10k"
    let file = Self.writeSuite(suite, keys: 10_000, valueLength: 20, in: workspace)
    let session = EditorSession(suite: suite, workspace: workspace)
    guard session.firstPaint() != nil else { abort("the editor drew nothing") }
    let fullPaint = Double(session.terminal.received.count)
    let fullRows = Double(session.terminal.rowsWritten(from: 0).count)

    let writer = PropertyListDefaults(fileURL: file)
    let key = Self.key(2)  // the third row on screen
    var bytes: [Double] = []
    var rows: [Double] = []
    for index in 0..<(runs + 1) {  // the first change warms up
      let offset = session.terminal.received.count
      let value = "changed-\(index)"
      writer.set(value, forKey: key)
      do { try writer.flush() } catch { abort("cannot write the suite: \(error)") }
      // The terminal gets only the cells that differ, so wait for any byte, then for quiet.
      guard session.terminal.read(from: offset, timeout: 2) != nil else {
        abort("the editor did not show the external change within 2 s")
      }
      session.terminal.readUntilQuiet(0.2)
      if index > 0 {
        bytes.append(Double(session.terminal.received.count - offset))
        rows.append(Double(session.terminal.rowsWritten(from: offset).count))
      }
    }
    _ = session.quit()

    let byteSamples = Samples(bytes)
    let rowSamples = Samples(rows)
    table.add(
      ResultRow(
        measure: "Editor, 10,000-key suite: one external key change, bytes to the terminal",
        samples: byteSamples, unit: .bytes, baseline: ("full paint", Samples([fullPaint])),
        target: Target(text: "≤ 1 KB", isMet: byteSamples.max <= 1024)))
    table.add(
      ResultRow(
        measure: "…terminal rows written to (rows re-rendered: asserted 1 in EditorTests)",
        samples: rowSamples, unit: .count, baseline: ("full paint", Samples([fullRows])),
        target: Target(text: "1 row", isMet: rowSamples.max <= 1)))
  }

  /// Opening a suite: the time from the worker's start of opening to the editor's first paint
  /// (target: `target` seconds); the peak resident memory growth of a worker that only opens it
  /// (the target), and of the editor up to its first paint.
  func runOpen(
    suite: String, label: String, fileSize: Int, target: Double = 0.3, into table: ResultTable
  ) {
    var times: [Double] = []
    var openGrowths: [Double] = []
    var editorGrowths: [Double] = []
    var emptyGrowths: [Double] = []
    let empty = "bench-open-empty"
    Self.writeSuite(empty, keys: 0, valueLength: 0, in: workspace)
    for run in 0...runs {  // run 0 warms the file cache
      let session = EditorSession(suite: suite, workspace: workspace)
      guard let painted = session.firstPaint(timeout: 30 + 10 * target) else {
        abort("\(label): no first paint")
      }
      let report = session.quit()
      let opened = openOnly(suite)
      if run > 0 {
        times.append(Double(Int64(bitPattern: painted &- report.openStart)) / 1e9)
        editorGrowths.append(report.growth)
        openGrowths.append(opened.growth)
        emptyGrowths.append(openOnly(empty).growth)
      }
    }
    let time = Samples(times)
    table.add(
      ResultRow(
        measure: "Open \(label) to first paint", samples: time, unit: .milliseconds,
        target: Target(
          text: target < 1 ? "≤ \(Int(target * 1000)) ms" : "≤ \(target) s",
          isMet: time.median <= target)))
    let limit = 5 * Double(fileSize)
    let growth = Samples(openGrowths)
    let emptyGrowth = Samples(emptyGrowths)
    // What any suite costs (Foundation's parser, the suite's queue and watcher) is not the file's.
    let net = growth.max - emptyGrowth.median
    table.add(
      ResultRow(
        measure:
          "…peak memory growth, opening only (file \(Unit.megabytes.format(Double(fileSize))))",
        samples: growth, unit: .megabytes,
        target: Target(
          text: "≤ 5× file = \(Unit.megabytes.format(limit)); max minus an empty suite's "
            + "\(Unit.megabytes.format(emptyGrowth.median)): \(Unit.megabytes.format(net))",
          isMet: net <= limit)))
    table.add(
      ResultRow(
        measure: "…peak memory growth, editor to first paint", samples: Samples(editorGrowths),
        unit: .megabytes))
  }

  /// The key of row `index` in the generated suites (sorted order is index order).
  static func key(_ index: Int) -> String {
    "key-" + String(repeating: "0", count: max(0, 6 - String(index).count)) + String(index)
  }

  /// Writes the suite `name` in the workspace folder: `keys` string values of about
  /// `valueLength` characters, as a binary property list. Returns its file.
  @discardableResult
  static func writeSuite(_ name: String, keys: Int, valueLength: Int, in workspace: Workspace)
    -> URL
  {
    let file = workspace.folder.appendingPathComponent(name + ".plist")
    writeSuite(at: file, keys: keys, valueLength: valueLength)
    return file
  }

  /// Writes `keys` string values of about `valueLength` characters to `file`, as a property list
  /// in `format` (keys ``key(_:)``).
  static func writeSuite(
    at file: URL, keys: Int, valueLength: Int,
    format: PropertyListSerialization.PropertyListFormat = .binary
  ) {
    let filler = String(repeating: "x", count: valueLength)
    var values: [String: Any] = [:]
    for index in 0..<keys {
      values[key(index)] = String("value \(index) \(filler)".prefix(valueLength))
    }
    do {
      try PropertyListSerialization.data(fromPropertyList: values, format: format, options: 0)
        .write(to: file)
    } catch {
      abort("cannot write \(file.path): \(error)")
    }
  }

  /// Worker mode `editor <suite> <report-file>`: runs the editor on the suite until `q`, then
  /// writes its ``EditorReport`` to the report file.
  @MainActor
  static func runEditorWorker(suite: String, report: String) {
    measureOpening(report: report) {
      do { try SettingsEditor(suites: [suite]).run() } catch { abort("editor: \(error)") }
    }
  }

  /// Worker mode `editor-file <path> <report-file>`: runs the editor on the property-list file
  /// at `path` (as `settings-editor --file`) until `q`, then writes its ``EditorReport``.
  @MainActor
  static func runFileEditorWorker(path: String, report: String) {
    measureOpening(report: report) {
      do { try SettingsEditor(files: [URL(fileURLWithPath: path)]).run() } catch {
        abort("editor: \(error)")
      }
    }
  }

  /// Worker mode `open <suite> <report-file>`: only opens the suite (every value in memory, as
  /// the editor holds them), then writes its ``EditorReport`` to the report file.
  static func runOpenWorker(suite: String, report: String) {
    measureOpening(report: report) {
      guard let defaults = PropertyListDefaults(suiteName: suite) else {
        abort("open: bad suite \(suite)")
      }
      blackHole(defaults.dictionaryRepresentation().count)
    }
  }

  /// Runs `open` and writes the numbers of an ``EditorReport`` to `report`.
  static func measureOpening(report: String, _ open: () -> Void) {
    let residentBeforeOpen = memoryStatus("VmRSS")
    let openStart = monotonicNanoseconds()
    open()
    // Not `getrusage`'s `ru_maxrss`: on Linux it keeps the peak of the image before `exec`, i.e.
    // of the forked copy of the (large) benchmark process.
    let line = "\(openStart) \(residentBeforeOpen) \(memoryStatus("VmHWM"))\n"
    guard FileManager.default.createFile(atPath: report, contents: Data(line.utf8)) else {
      abort("cannot write \(report)")
    }
  }

  /// The numbers an `editor` or `open` worker reports when it ends.
  struct EditorReport {
    let openStart: UInt64
    let residentBeforeOpen: Int
    let peakResident: Int

    /// Reads the report a worker wrote to `file`.
    init(file: URL) {
      let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Int64($0) }
      guard numbers.count == 3 else { abort("a worker reported '\(text)'") }
      openStart = UInt64(numbers[0])
      residentBeforeOpen = Int(numbers[1])
      peakResident = Int(numbers[2])
    }

    /// How much the resident memory grew from before opening to its peak.
    var growth: Double { Double(peakResident - residentBeforeOpen) }
  }

  /// The report of an `open` worker on `suite`.
  private func openOnly(_ suite: String) -> EditorReport {
    let reportFile = workspace.newFile("open-report", extension: "txt")
    let process = Worker.process(["open", suite, reportFile.path], configHome: workspace.folder)
    do { try process.run() } catch { abort("cannot start an open worker: \(error)") }
    process.waitUntilExit()
    return EditorReport(file: reportFile)
  }

  /// One editor worker on a pseudo-terminal.
  final class EditorSession {
    let terminal = PseudoTerminal(
      rows: EditorMeasure.size.rows, columns: EditorMeasure.size.columns)
    private let process: Process
    private let reportFile: URL

    /// An editor on the suite `suite` of the workspace's preferences folder.
    convenience init(suite: String, workspace: Workspace) {
      self.init(worker: "editor", suite, workspace: workspace)
    }

    /// The editor of the worker mode `worker` (which takes `argument` and a report file), its
    /// preferences and published schemas in `configHome` (by default the workspace's folder);
    /// its report in the workspace.
    init(worker: String, _ argument: String, workspace: Workspace, configHome: URL? = nil) {
      reportFile = workspace.newFile("editor-report", extension: "txt")
      process = Worker.process(
        [worker, argument, reportFile.path], configHome: configHome ?? workspace.folder)
      var environment = process.environment ?? [:]
      environment["TERM"] = "xterm-256color"
      environment["LINES"] = nil
      environment["COLUMNS"] = nil
      process.environment = environment
      process.standardInput = terminal.slave
      process.standardOutput = terminal.slave
      do { try process.run() } catch { abort("cannot start the editor: \(error)") }
    }

    /// Waits for the first frame to be complete; returns when it arrived, or nil.
    func firstPaint(timeout: Double = 10) -> UInt64? {
      let painted = terminal.read(from: 0, until: EditorMeasure.keyBarMarker, timeout: timeout)
      terminal.readUntilQuiet(0.2)
      return painted
    }

    /// The worker's resident memory now (`VmRSS`), in bytes.
    var residentBytes: Double { ProcessFigures(pid: process.processIdentifier).residentBytes }

    /// Presses `q`, waits for the worker to end and returns its report.
    func quit() -> EditorReport {
      terminal.type("q")
      while process.isRunning { terminal.readUntilQuiet(0.05) }
      return EditorReport(file: reportFile)
    }
  }
}

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
    let fullRows = Double(session.terminal.rowsAddressed(from: 0).count)

    let writer = PropertyListDefaults(fileURL: file)
    let key = Self.key(2)  // the third row on screen
    var bytes: [Double] = []
    var rows: [Double] = []
    for index in 0..<(runs + 1) {  // the first change warms up
      let offset = session.terminal.received.count
      let value = "changed-\(index)"
      writer.set(value, forKey: key)
      do { try writer.flush() } catch { abort("cannot write the suite: \(error)") }
      guard session.terminal.read(from: offset, until: value, timeout: 2) != nil else {
        abort("the editor did not show the external change within 2 s")
      }
      session.terminal.readUntilQuiet(0.2)
      if index > 0 {
        bytes.append(Double(session.terminal.received.count - offset))
        rows.append(Double(session.terminal.rowsAddressed(from: offset).count))
      }
    }
    _ = session.quit()

    let byteSamples = Samples(bytes)
    let rowSamples = Samples(rows)
    table.add(ResultRow(
      measure: "Editor, 10,000-key suite: one external key change, bytes to the terminal",
      samples: byteSamples, unit: .bytes, baseline: ("full paint", Samples([fullPaint])),
      target: Target(text: "≤ 1 KB", isMet: byteSamples.max <= 1024)))
    table.add(ResultRow(
      measure: "…terminal rows addressed (rows re-rendered: asserted 1 in EditorTests)",
      samples: rowSamples, unit: .count, baseline: ("full paint", Samples([fullRows])),
      target: Target(text: "1 row", isMet: rowSamples.max <= 1)))
  }

  /// Opening a suite to the editor's first paint: time from the worker's start of opening, and
  /// the worker's peak resident memory growth over its resident size before opening.
  func runOpen(suite: String, label: String, fileSize: Int, into table: ResultTable) {
    var times: [Double] = []
    var growths: [Double] = []
    for run in 0...runs {  // run 0 warms the file cache
      let session = EditorSession(suite: suite, workspace: workspace)
      guard let painted = session.firstPaint(timeout: 30) else { abort("\(label): no first paint") }
      let report = session.quit()
      if run > 0 {
        times.append(Double(Int64(bitPattern: painted &- report.openStart)) / 1e9)
        growths.append(Double(report.peakResident - report.residentBeforeOpen))
      }
    }
    let time = Samples(times)
    let growth = Samples(growths)
    table.add(ResultRow(
      measure: "Open \(label) to first paint", samples: time, unit: .milliseconds,
      target: Target(text: "≤ 300 ms", isMet: time.median <= 0.3)))
    let limit = 10 * Double(fileSize)
    table.add(ResultRow(
      measure: "…peak memory growth (file \(Unit.megabytes.format(Double(fileSize))))", samples: growth,
      unit: .megabytes, target: Target(text: "≤ 10× file = \(Unit.megabytes.format(limit))", isMet: growth.max <= limit)))
  }

  /// The key of row `index` in the generated suites (sorted order is index order).
  static func key(_ index: Int) -> String {
    "key-" + String(repeating: "0", count: max(0, 6 - String(index).count)) + String(index)
  }

  /// Writes the suite `name` in the workspace folder: `keys` string values of about
  /// `valueLength` characters, as a binary property list. Returns its file.
  @discardableResult
  static func writeSuite(_ name: String, keys: Int, valueLength: Int, in workspace: Workspace) -> URL {
    let filler = String(repeating: "x", count: valueLength)
    var values: [String: Any] = [:]
    for index in 0..<keys { values[key(index)] = String("value \(index) \(filler)".prefix(valueLength)) }
    let file = workspace.folder.appendingPathComponent(name + ".plist")
    do {
      try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0).write(to: file)
    } catch {
      abort("cannot write \(file.path): \(error)")
    }
    return file
  }

  /// Worker mode `editor <suite> <report-file>`: runs the editor on the suite until `q`, then
  /// writes ``EditorReport`` numbers to the report file.
  @MainActor
  static func runWorker(suite: String, report: String) {
    let residentBeforeOpen = residentBytes()
    let openStart = monotonicNanoseconds()
    do {
      try SettingsEditor(suites: [suite]).run()
    } catch {
      abort("editor: \(error)")
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let line = "\(openStart) \(residentBeforeOpen) \(usage.ru_maxrss * 1024)\n"
    guard FileManager.default.createFile(atPath: report, contents: Data(line.utf8)) else { abort("cannot write \(report)") }
  }

  /// The resident set size of this process now (`VmRSS` of `/proc/self/status`).
  private static func residentBytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
  }

  /// The numbers an editor worker reports when it ends.
  struct EditorReport {
    let openStart: UInt64
    let residentBeforeOpen: Int
    let peakResident: Int
  }

  /// One editor worker on a pseudo-terminal.
  final class EditorSession {
    let terminal = PseudoTerminal(rows: EditorMeasure.size.rows, columns: EditorMeasure.size.columns)
    private let process: Process
    private let reportFile: URL

    init(suite: String, workspace: Workspace) {
      reportFile = workspace.newFile("editor-report", extension: "txt")
      process = Worker.process(["editor", suite, reportFile.path], configHome: workspace.folder)
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

    /// Presses `q`, waits for the worker to end and returns its report.
    func quit() -> EditorReport {
      terminal.type("q")
      while process.isRunning { terminal.readUntilQuiet(0.05) }
      let text = (try? String(contentsOf: reportFile, encoding: .utf8)) ?? ""
      let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Int64($0) }
      guard numbers.count == 3 else { abort("the editor worker reported '\(text)'") }
      return EditorReport(
        openStart: UInt64(numbers[0]), residentBeforeOpen: Int(numbers[1]), peakResident: Int(numbers[2]))
    }
  }
}

import Foundation

/// A measure run in a process of its own (worker mode `alone <measure> <report-file>`): a memory
/// row then measures its own work only, not what the measures run before it in the same process
/// left in the heap (a run of every measure read 359.8 MB for the 5 MB writer that reads about
/// 55 MB alone), so a full run and a run `--only` give the same figures.
enum ProcessOfItsOwn {
  /// Runs the measure `name` in worker mode `alone` and returns the numbers it reported.
  static func figures(of name: String, workspace: Workspace) -> [Int] {
    let report = workspace.newFile("\(name)-report", extension: "txt")
    let process = Worker.process(["alone", name, report.path], configHome: workspace.folder)
    do { try process.run() } catch { abort("cannot start the \(name) worker: \(error)") }
    process.waitUntilExit()
    let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
    let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard process.terminationStatus == 0, !numbers.isEmpty else {
      abort("the \(name) worker reported '\(text)' (exit status \(process.terminationStatus))")
    }
    return numbers
  }

  /// Worker mode `alone <measure> <report-file>`: measures `name` in this process (the run's
  /// workspace, named by the environment) and writes its numbers to `report`.
  static func runWorker(_ name: String, report: String) {
    let workspace: Workspace
    do { workspace = try Workspace() } catch { abort("no temporary folder: \(error)") }
    let numbers: [Int]
    switch name {
    case "memory": numbers = MemoryRoundsMeasure(workspace: workspace).measure()
    case "flat-memory": numbers = FlatMemoryMeasure(workspace: workspace).measure()
    default: abort("alone: no measure \(name)")
    }
    let line = numbers.map(String.init).joined(separator: " ") + "\n"
    guard FileManager.default.createFile(atPath: report, contents: Data(line.utf8)) else {
      abort("cannot write \(report)")
    }
  }
}

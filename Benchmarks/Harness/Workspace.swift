import Foundation

/// A temporary folder for one benchmark run: suite files, reports of worker processes, and the
/// `HOME` and `XDG_CONFIG_HOME` of every process of the run. Removed by ``remove()``.
final class Workspace {
  /// The environment variable naming the workspace of a run (set by ``runInFreshHome()``).
  static let variable = "OBSERVABLEDEFAULTS_BENCH_WORKSPACE"
  /// The folder.
  let folder: URL

  /// The run's folder: the one ``variable`` names, else a fresh folder under the system's
  /// temporary folder.
  init() throws {
    if let path = ProcessInfo.processInfo.environment[Self.variable] {
      folder = URL(fileURLWithPath: path)
    } else {
      folder = FileManager.default.temporaryDirectory
        .appendingPathComponent(
          "observabledefaults-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// Runs this program again with the same arguments, `HOME` and `XDG_CONFIG_HOME` in a new
  /// workspace (Foundation reads them once, at start-up, so they cannot be changed later: its
  /// `UserDefaults` baselines would write into the user's `~/.config`), then removes the
  /// workspace. Returns the run's exit status.
  static func runInFreshHome() -> Int32 {
    let workspace: Workspace
    do { workspace = try Workspace() } catch { abort("no temporary folder: \(error)") }
    defer { workspace.remove() }
    let process = Process()
    process.executableURL = Worker.executable
    process.arguments = Array(CommandLine.arguments.dropFirst())
    var environment = ProcessInfo.processInfo.environment
    environment[variable] = workspace.folder.path
    environment["HOME"] = workspace.folder.path
    environment["XDG_CONFIG_HOME"] = workspace.folder.path
    process.environment = environment
    do { try process.run() } catch { abort("cannot start the run: \(error)") }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// A path in the folder that does not exist yet.
  func newFile(_ name: String, extension pathExtension: String = "plist") -> URL {
    folder.appendingPathComponent("\(name)-\(UInt32.random(in: 0...UInt32.max)).\(pathExtension)")
  }

  /// Removes the folder and everything in it.
  func remove() {
    try? FileManager.default.removeItem(at: folder)
  }
}

/// This program started again in a worker mode (see `WorkerMode`), as another process.
enum Worker {
  /// The program's own executable.
  static var executable: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  }

  /// A not yet started process running this program with `arguments` and `XDG_CONFIG_HOME` set
  /// to `configHome`, its published schemas in `configHome/data` and no installed ones
  /// (``SchemaListMeasure``); standard error is inherited.
  static func process(_ arguments: [String], configHome: URL) -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CONFIG_HOME"] = configHome.path
    environment["XDG_DATA_HOME"] = configHome.appendingPathComponent("data").path
    environment["XDG_DATA_DIRS"] = configHome.appendingPathComponent("installed").path
    process.environment = environment
    return process
  }
}

/// Fails the benchmark with a message on standard error (exit status 1).
func abort(_ message: String) -> Never {
  FileHandle.standardError.write(Data("benchmarks: \(message)\n".utf8))
  exit(1)
}

import Foundation

/// A temporary folder for one benchmark run: suite files, reports of worker processes, and the
/// `XDG_CONFIG_HOME` of every process started. Removed by ``remove()``.
final class Workspace {
  /// The folder.
  let folder: URL

  /// Creates a fresh folder under the system's temporary folder.
  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("observabledefaults-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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
  /// to `configHome`; standard error is inherited.
  static func process(_ arguments: [String], configHome: URL) -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CONFIG_HOME"] = configHome.path
    process.environment = environment
    return process
  }
}

/// Fails the benchmark with a message on standard error (exit status 1).
func abort(_ message: String) -> Never {
  FileHandle.standardError.write(Data("benchmarks: \(message)\n".utf8))
  exit(1)
}

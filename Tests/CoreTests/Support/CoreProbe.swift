import Foundation

/// The built `core-probe` executable, started as another process.
enum CoreProbe {
  /// `core-probe` beside the test bundle (the build products folder).
  static let executable: URL? = {
    let candidates = [
      Bundle.main.bundleURL,
      Bundle.main.bundleURL.deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .deletingLastPathComponent(),
    ]
    return candidates.map { $0.appendingPathComponent("core-probe") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  /// The outcome of a finished probe.
  struct Result {
    var status: Int32
    var output: String
  }

  /// Starts the probe with `arguments`; call `finish(_:)` to wait for it.
  ///
  /// - Parameters:
  ///   - arguments: The command and its arguments (see `Tests/CoreProbe/main.swift`).
  ///   - configHome: `XDG_CONFIG_HOME` for the probe (inherited when nil).
  ///   - user: A user id to run the probe as (through `setpriv`; the tests run as root).
  static func start(_ arguments: [String], configHome: URL? = nil, asUser user: Int? = nil) throws -> (Process, Pipe) {
    guard let executable else { throw ProbeMissing() }
    let process = Process()
    let pipe = Pipe()
    if let user {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", executable.path] + arguments
    } else {
      process.executableURL = executable
      process.arguments = arguments
    }
    if let configHome {
      var environment = ProcessInfo.processInfo.environment
      environment["XDG_CONFIG_HOME"] = configHome.path
      process.environment = environment
    }
    process.standardOutput = pipe
    try process.run()
    return (process, pipe)
  }

  /// Waits for a started probe and collects its standard output.
  static func finish(_ started: (Process, Pipe)) -> Result {
    let data = started.1.fileHandleForReading.readDataToEndOfFile()
    started.0.waitUntilExit()
    return Result(
      status: started.0.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }

  /// Waits at most `seconds` for a started probe; kills it (SIGKILL) when it is still running
  /// then.
  ///
  /// - Returns: The result, or nil when the probe had to be killed.
  static func finish(_ started: (Process, Pipe), within seconds: Double) async -> Result? {
    let exited = await poll(seconds: seconds) { !started.0.isRunning }
    guard exited else {
      kill(started.0.processIdentifier, SIGKILL)
      started.0.waitUntilExit()
      return nil
    }
    return finish(started)
  }

  /// Runs the probe to the end.
  static func run(_ arguments: [String], configHome: URL? = nil, asUser user: Int? = nil) throws -> Result {
    finish(try start(arguments, configHome: configHome, asUser: user))
  }

  struct ProbeMissing: Error, CustomStringConvertible {
    var description: String { "core-probe not found beside \(Bundle.main.bundleURL.path)" }
  }
}

import Foundation

/// `core-probe` started with extra environment variables, for the cloud store's tests.
enum CloudProbe {
  /// Starts the probe with `arguments` and `environment` added to this process's.
  static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe) {
    guard let executable = CoreProbe.executable else { throw CoreProbe.ProbeMissing() }
    let process = Process()
    let pipe = Pipe()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = pipe
    try process.run()
    return (process, pipe)
  }

  /// Runs the probe to the end.
  static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CoreProbe.Result {
    CoreProbe.finish(try start(arguments, environment: environment))
  }

  /// Reads the probe's output byte by byte until the line `line` (false at end of output).
  static func waitForLine(_ line: String, from started: (Process, Pipe)) -> Bool {
    var text = Data()
    let handle = started.1.fileHandleForReading
    while true {
      let byte = handle.readData(ofLength: 1)
      if byte.isEmpty { return false }
      if byte == Data("\n".utf8) {
        if String(decoding: text, as: UTF8.self) == line { return true }
        text = Data()
      } else {
        text.append(byte)
      }
    }
  }
}

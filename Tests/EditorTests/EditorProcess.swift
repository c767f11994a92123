import Foundation

/// The built `settings-editor` program and a private preferences folder to run it in.
struct EditorProcess {
  /// The result of one run.
  struct Result {
    let status: Int32
    let output: String
    let error: String
  }

  /// The program, built beside the test bundle (the test target depends on it).
  static let binary: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("settings-editor")

  /// The folder used as `XDG_CONFIG_HOME` for every run of this value.
  let preferences: URL

  init() throws {
    preferences = FileManager.default.temporaryDirectory
      .appendingPathComponent("editor-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: preferences, withIntermediateDirectories: true)
  }

  /// Runs the program with `arguments` and waits for it.
  func run(_ arguments: String...) throws -> Result {
    try run(arguments)
  }

  /// Runs the program with `arguments` (and `input` on standard input) and waits for it.
  func run(_ arguments: [String], input: Data? = nil) throws -> Result {
    let process = Process()
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try start(process, arguments)
    if let input {
      inputPipe.fileHandleForWriting.write(input)
      try inputPipe.fileHandleForWriting.close()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      error: String(decoding: errorData, as: UTF8.self))
  }

  /// Starts `process` as the program with `arguments` in this folder, without waiting; the
  /// caller sets its standard streams first.
  func start(_ process: Process, _ arguments: [String]) throws {
    process.executableURL = Self.binary
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(
      Dictionary(uniqueKeysWithValues: environment)
    ) { $1 }
    try process.run()
  }

  /// Runs `read` until it prints `expected` or `seconds` pass (the editor's writes reach the
  /// file a moment after the screen shows them); returns the last output.
  func read(_ arguments: [String], until expected: String, seconds: Double = 5) throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var output = try run(["read"] + arguments).output
    while output != expected, Date() < deadline {
      Thread.sleep(forTimeInterval: 0.02)
      output = try run(["read"] + arguments).output
    }
    return output
  }

  /// The preferences folder, and the cloud containers beside it (the demo has a cloud object).
  private var environment: [(String, String)] {
    [("XDG_CONFIG_HOME", preferences.path), ("XDG_DATA_HOME", preferences.path + "/data")]
  }

  /// The command line that starts the program in this folder, for a shell (tmux).
  func shellCommand(_ arguments: [String]) -> String {
    (["env"] + environment.map { "\($0)=\($1)" } + [Self.binary.path] + arguments)
      .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
      .joined(separator: " ")
  }
}

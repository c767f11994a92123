import Foundation

/// A program started as another process, with its standard output and standard error collected.
///
/// Tests use it for the programs the package builds beside them (`core-probe`, `defaults-probe`,
/// `settings-editor`) and for tools on `PATH` (`swift`, `etcdctl`).
public final class ChildProcess {
  /// How a finished process ended and what it printed.
  public struct Result: Sendable, Equatable {
    /// The exit status (or the signal number when a signal ended it).
    public let status: Int32
    /// Standard output, decoded as UTF-8 (invalid bytes replaced).
    public let output: String
    /// Standard error, decoded as UTF-8 (invalid bytes replaced).
    public let error: String
  }

  /// A program the package builds was not found beside the tests.
  public struct ProgramMissing: Error, CustomStringConvertible {
    /// The program's name.
    public let name: String
    /// `"<name> not found beside the tests (<folders looked at>)"`.
    public var description: String
  }

  /// The underlying process, running once the initializer returns.
  public let process: Process
  private let output = Pipe()
  private let error = Pipe()
  private let outputText: StreamCollector
  private let errorText: StreamCollector

  /// The process identifier, for signals.
  public var processIdentifier: Int32 { process.processIdentifier }

  /// Whether the process is still running.
  public var isRunning: Bool { process.isRunning }

  /// What the process printed on standard output so far (it is read as it comes).
  public var outputSoFar: String { outputText.text }

  /// What the process printed on standard error so far (it is read as it comes).
  public var errorSoFar: String { errorText.text }

  /// The program `name` from the build products folder the test bundle runs from (SwiftPM builds
  /// a test target's executable dependencies there).
  ///
  /// - Throws: ``ProgramMissing`` when no executable of that name is there.
  public static func builtProgram(_ name: String) throws -> URL {
    let folders = [
      URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    let candidates = folders.map { $0.appendingPathComponent(name) }
    guard
      let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
    else {
      throw ProgramMissing(
        name: name,
        description:
          "\(name) not found beside the tests (\(folders.map(\.path).joined(separator: ", ")))")
    }
    return found
  }

  /// The `XDG_STATE_HOME` of the programs a test starts unless it gives its own: a folder of
  /// this test process in the temporary folder, removed when it exits (see ``ProcessExit``).
  public static let stateHome = ProcessExit.temporaryFolder(
    prefix: "observable-defaults-tests-state")

  /// Starts `program` without waiting for it.
  ///
  /// - Parameters:
  ///   - program: The executable.
  ///   - arguments: Its arguments.
  ///   - environment: Variables set (or replaced) on top of this process's environment; a `nil`
  ///     value removes the variable. Unless it says otherwise, the child publishes no settings
  ///     schemas (`OBSERVABLE_DEFAULTS_PUBLISH_SCHEMAS=0`) and keeps its change histories in a
  ///     folder of this test run (`XDG_STATE_HOME`, see ``stateHome``): a test's programs must not
  ///     leave schemas or histories in the user's folders.
  ///   - input: Written to its standard input, which is then closed; `nil` gives it `/dev/null`.
  ///   - folder: Its working directory; this process's when `nil`.
  /// - Throws: The error of `Process.run()` when it cannot be started.
  public init(
    _ program: URL, _ arguments: [String], environment: [String: String?] = [:],
    input: Data? = nil, in folder: URL? = nil
  ) throws {
    process = Process()
    process.executableURL = program
    process.arguments = arguments
    var variables = ProcessInfo.processInfo.environment
    variables["OBSERVABLE_DEFAULTS_PUBLISH_SCHEMAS"] = "0"
    variables["XDG_STATE_HOME"] = Self.stateHome.path
    for (name, value) in environment { variables[name] = value }
    process.environment = variables
    process.currentDirectoryURL = folder
    process.standardOutput = output
    process.standardError = error
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    outputText = StreamCollector(output.fileHandleForReading)
    errorText = StreamCollector(error.fileHandleForReading)
    if let input {
      inputPipe.fileHandleForWriting.write(input)
      try inputPipe.fileHandleForWriting.close()
    }
  }

  /// Waits until the process prints the line `line` on standard output (a process announcing
  /// that it is ready), at most ``Polling/deadline``.
  ///
  /// - Returns: `true` once that line is there; `false` when the output ended, or the deadline
  ///   passed, without it.
  public func waitForLine(_ line: String) -> Bool {
    func printed() -> Bool { outputText.text.split(separator: "\n").contains { $0 == line } }
    pollBlocking { printed() || outputText.hasEnded }
    return printed()
  }

  /// Waits for the process to end and returns what it printed.
  public func finish() -> Result {
    let outputData = outputText.waitForEnd()
    let errorData = errorText.waitForEnd()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      error: String(decoding: errorData, as: UTF8.self))
  }

  /// Waits at most `deadline` for the process to end; kills it (`SIGKILL`) when it still runs.
  ///
  /// - Returns: The result, or `nil` when the process had to be killed.
  public func finish(orKillAfter deadline: Duration) async -> Result? {
    guard await poll(within: deadline, until: { !process.isRunning }) else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    return finish()
  }

  /// Runs `program` to the end.
  ///
  /// - Throws: The error of `Process.run()` when it cannot be started.
  public static func run(
    _ program: URL, _ arguments: [String], environment: [String: String?] = [:],
    input: Data? = nil, in folder: URL? = nil
  ) throws -> Result {
    try ChildProcess(program, arguments, environment: environment, input: input, in: folder)
      .finish()
  }

  /// Runs `command` found on `PATH` (through `/usr/bin/env`) to the end.
  ///
  /// - Throws: The error of `Process.run()` when `env` cannot be started.
  public static func runCommand(
    _ command: String, _ arguments: [String], environment: [String: String?] = [:],
    in folder: URL? = nil
  ) throws -> Result {
    try run(
      URL(fileURLWithPath: "/usr/bin/env"), [command] + arguments, environment: environment,
      in: folder)
  }
}

/// Reads a pipe to its end on a thread of its own, as the bytes come, so that a child filling one
/// stream never blocks while the test waits on the other, and a test can look at the output of a
/// process that still runs.
private final class StreamCollector: @unchecked Sendable {
  private let lock = NSLock()
  private let ended = DispatchSemaphore(value: 0)
  private var data = Data()
  private var isAtEnd = false

  init(_ handle: FileHandle) {
    Thread { [self] in
      while case let chunk = handle.availableData, !chunk.isEmpty {
        lock.withLock { data.append(chunk) }
      }
      lock.withLock { isAtEnd = true }
      ended.signal()
    }.start()
  }

  /// The bytes read so far, decoded as UTF-8.
  var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

  /// Whether the stream has ended (the process closed it or exited).
  var hasEnded: Bool { lock.withLock { isAtEnd } }

  /// Waits for the end of the stream and returns all its bytes.
  func waitForEnd() -> Data {
    ended.wait()
    ended.signal()
    return lock.withLock { data }
  }
}

import Foundation
import TestSupport

/// The built `settings-editor` program and a private preferences folder to run it in.
struct EditorProcess {
  /// The result of one run.
  struct Result {
    let status: Int32
    let output: String
    let error: String

    init(_ result: ChildProcess.Result) {
      (status, output, error) = (result.status, result.output, result.error)
    }
  }

  /// The program, built beside the test bundle (the test target depends on it).
  static let binary: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("settings-editor")

  /// The folder used as `XDG_CONFIG_HOME` for every run of this value, removed when the last
  /// copy of the value goes.
  private let folder: TemporaryFolder
  var preferences: URL { folder.url }

  init() throws {
    folder = try TemporaryFolder(prefix: "editor-e2e")
  }

  /// Runs the program with `arguments` and waits for it.
  func run(_ arguments: String...) throws -> Result {
    try run(arguments)
  }

  /// Runs the program with `arguments` (and `input` on standard input) and waits for it.
  func run(_ arguments: [String], input: Data? = nil) throws -> Result {
    Result(try start(arguments, input: input).finish())
  }

  /// Runs the program with arguments written as printf(1) formats (`k\377` is `k` and byte
  /// 0xFF), through `/bin/sh`: the way to pass bytes that are not UTF-8, which `Process` cannot.
  func run(printf formats: [String]) throws -> Result {
    let words = formats.map { "\"$(printf -- '\($0)')\"" }.joined(separator: " ")
    return Result(
      try ChildProcess(
        URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" " + words, Self.binary.path],
        environment: Dictionary(uniqueKeysWithValues: environment)
      ).finish())
  }

  /// Runs the program with `arguments`, through `/bin/sh`, with at most `limit` files open at
  /// once (`ulimit -n`).
  func run(openFileLimit limit: Int, _ arguments: String...) throws -> Result {
    Result(
      try ChildProcess(
        URL(fileURLWithPath: "/bin/sh"),
        ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", Self.binary.path] + arguments,
        environment: Dictionary(uniqueKeysWithValues: environment)
      ).finish())
  }

  /// Starts the program with `arguments` in this folder, without waiting.
  func start(_ arguments: [String], input: Data? = nil) throws -> ChildProcess {
    try ChildProcess(
      Self.binary, arguments, environment: Dictionary(uniqueKeysWithValues: environment),
      input: input)
  }

  /// Runs `read` until it prints `expected` or the polling deadline passes (the editor's writes
  /// reach the file a moment after the screen shows them); returns the last output.
  func read(_ arguments: [String], until expected: String) throws -> String {
    var output = ""
    try pollBlocking {
      output = try run(["read"] + arguments).output
      return output == expected
    }
    return output
  }

  /// The preferences folder, and the cloud containers, published schemas and change history
  /// beside it (the demo has a cloud object); no installed schema folder of the machine is read,
  /// no system folder (``system`` stands for `/etc/xdg`), and no history of the user's is written.
  private var environment: [(String, String)] {
    [
      ("XDG_CONFIG_HOME", preferences.path), ("XDG_DATA_HOME", preferences.path + "/data"),
      ("XDG_DATA_DIRS", preferences.path + "/installed"),
      ("XDG_CONFIG_DIRS", system.url.path),
      ("XDG_STATE_HOME", preferences.path + "/state"), ("TZ", "UTC"),
    ]
  }

  /// The one folder of `$XDG_CONFIG_DIRS` of the runs: where an administrator's system-wide
  /// defaults and mandatory values go (it need not exist).
  var system: SystemConfigFolder {
    SystemConfigFolder(preferences.appendingPathComponent("system"))
  }

  /// The change history of the programs run in this folder.
  var history: URL {
    preferences.appendingPathComponent("state/ObservableDefaults/history")
  }

  /// Runs the `schema-probe` program (an app with settings of its own) in this folder with
  /// schema publishing on, and waits for it.
  func runSchemaProbe(_ arguments: String...) throws -> Result {
    Result(try startSchemaProbe(arguments).finish())
  }

  /// Starts `schema-probe` as ``runSchemaProbe(_:)`` runs it, without waiting.
  func startSchemaProbe(_ arguments: [String]) throws -> ChildProcess {
    var variables: [String: String?] = Dictionary(
      uniqueKeysWithValues: environment.map { ($0, $1) })
    variables.updateValue(nil, forKey: "OBSERVABLE_DEFAULTS_PUBLISH_SCHEMAS")
    return try ChildProcess(
      ChildProcess.builtProgram("schema-probe"), arguments, environment: variables)
  }

  /// Where the programs run in this folder publish their schemas.
  var publishedSchemas: URL {
    preferences.appendingPathComponent("data/ObservableDefaults/schemas")
  }

  /// The command line that starts the program (`program`: another one built) in this folder,
  /// for a shell (tmux), with `extra` variables set too.
  func shellCommand(
    _ arguments: [String], environment extra: [String: String] = [:],
    program: URL = EditorProcess.binary
  ) -> String {
    let variables = environment + extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    return (["env"] + variables.map { "\($0)=\($1)" } + [program.path] + arguments)
      .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
      .joined(separator: " ")
  }
}

import Foundation
import TestSupport

/// The built `core-probe` program (`Tests/CoreProbe/main.swift`), started as another process.
enum CoreProbe {
  /// Starts the probe with `arguments`; `finish()` waits for it.
  ///
  /// - Parameters:
  ///   - arguments: The command and its arguments (see `Tests/CoreProbe/main.swift`).
  ///   - configHome: `XDG_CONFIG_HOME` for the probe (inherited when nil), and
  ///     `<configHome>/state` its `XDG_STATE_HOME` (where suites' change histories go) unless
  ///     `environment` sets one.
  ///   - user: A user id to run the probe as (through `setpriv`; the tests run as root).
  ///   - environment: More variables for the probe.
  static func start(
    _ arguments: [String], configHome: URL? = nil, asUser user: Int? = nil,
    environment: [String: String] = [:]
  ) throws -> ChildProcess {
    let probe = try ChildProcess.builtProgram("core-probe")
    var variables: [String: String?] = environment
    if let configHome {
      variables["XDG_CONFIG_HOME"] = configHome.path
      if variables["XDG_STATE_HOME"] == nil {
        variables["XDG_STATE_HOME"] = configHome.appendingPathComponent("state").path
      }
    }
    guard let user else { return try ChildProcess(probe, arguments, environment: variables) }
    return try ChildProcess(
      URL(fileURLWithPath: "/usr/bin/setpriv"),
      ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", probe.path] + arguments,
      environment: variables)
  }

  /// Runs the probe to the end.
  static func run(
    _ arguments: [String], configHome: URL? = nil, asUser user: Int? = nil,
    environment: [String: String] = [:]
  ) throws -> ChildProcess.Result {
    try start(arguments, configHome: configHome, asUser: user, environment: environment).finish()
  }
}

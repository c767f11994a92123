import TestSupport

/// The built `defaults-probe` program (`Tests/DefaultsProbe/main.swift`), a program that imports
/// `ObservableDefaults` and so takes etcd from its configuration, run as another process.
enum DefaultsProbe {
  /// Runs the probe with `arguments` and `environment` added to this process's, to the end.
  static func run(_ arguments: [String], environment: [String: String] = [:]) throws
    -> ChildProcess.Result
  {
    try ChildProcess(
      ChildProcess.builtProgram("defaults-probe"), arguments, environment: environment
    ).finish()
  }
}

public import Foundation

/// The configuration file that selects a sync engine (etcd, NATS) for a program's cloud store
/// without code changes:
/// `$XDG_CONFIG_HOME/ObservableDefaults/cloud.conf` (`~/.config/ObservableDefaults/cloud.conf`
/// when `XDG_CONFIG_HOME` is not an absolute path), with `key = value` lines and `#` comments:
///
///     endpoints = https://10.0.0.2:2379, https://10.0.0.3:2379, https://10.0.0.4:2379
///     account = alice
///     credentials-file = /home/alice/.config/ObservableDefaults/etcd-credentials
///     ca-file = /etc/ssl/etcd/ca.pem
///
/// Each engine reads its own keys (etcd: `endpoints`, `root`, `account`, `credentials-file`,
/// `ca-file`, `cert-file`, `key-file`, `state-directory`, `proxy`; NATS: the same names with a
/// `nats-` prefix, see `EtcdConfiguration.fromEnvironment(container:environment:)` and
/// `NATSConfiguration.fromEnvironment(container:environment:)`); each environment variable wins
/// over its key. Passwords do not belong here: they go in a credentials file (mode `0600`) or
/// the environment.
public enum CloudConfigurationFile {
  /// The file's location, read from the environment at each call.
  ///
  /// - Parameter environment: The environment to read `XDG_CONFIG_HOME` and `HOME` from.
  public static func url(environment: [String: String] = ProcessEnvironment.all) -> URL {
    let configHome: URL
    if let value = environment["XDG_CONFIG_HOME"], value.hasPrefix("/") {
      configHome = URL(fileURLWithPath: value, isDirectory: true)
    } else {
      let home =
        environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? FileManager.default.homeDirectoryForCurrentUser
      configHome = home.appendingPathComponent(".config", isDirectory: true)
    }
    return configHome.appendingPathComponent("ObservableDefaults/cloud.conf")
  }

  /// The `key = value` fields of `text`: blank lines and lines starting with `#` are skipped,
  /// keys and values trimmed, a later line wins.
  package static func fields(of text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
      let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
      fields[key] = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    }
    return fields
  }

  /// The fields of the file at ``url(environment:)`` (none when there is no file), each replaced
  /// by the environment variable `variables[key]` when that is set and not empty.
  ///
  /// - Parameters:
  ///   - variables: The environment variable of each key.
  ///   - environment: The environment to read.
  ///   - unreadable: The error to throw, given the message, when the file exists but cannot be
  ///     read as UTF-8 text.
  package static func fields(
    overriddenBy variables: [String: String], environment: [String: String],
    unreadable: (String) -> any Error
  ) throws -> [String: String] {
    let file = url(environment: environment)
    var fields: [String: String] = [:]
    if FileManager.default.fileExists(atPath: file.path) {
      guard let text = try? String(contentsOf: file, encoding: .utf8) else {
        throw unreadable("cannot read the cloud configuration file \(file.path)")
      }
      fields = Self.fields(of: text)
    }
    for (key, variable) in variables {
      if let value = environment[variable], !value.isEmpty { fields[key] = value }
    }
    return fields
  }
}

import Foundation
public import ObservableDefaultsCore

/// The etcd user and password of one account, read from a file of mode `0600` or from the
/// environment — never from the command line. The password is never printed: ``description``
/// names only the user and where the credentials came from.
///
/// A credentials file holds `key = value` lines (`#` starts a comment):
///
///     user = alice
///     password = s3cret
public struct EtcdCredentials: Sendable, CustomStringConvertible {
  /// The etcd user name.
  public let user: String
  /// The password; internal, so it cannot be printed by accident.
  let password: String
  /// Where the credentials came from (a file path, environment variables, or code).
  public let source: String

  /// The environment variable holding the user name: `OBSERVABLE_DEFAULTS_ETCD_USER`.
  public static let userVariable = "OBSERVABLE_DEFAULTS_ETCD_USER"
  /// The environment variable holding the password: `OBSERVABLE_DEFAULTS_ETCD_PASSWORD`.
  public static let passwordVariable = "OBSERVABLE_DEFAULTS_ETCD_PASSWORD"

  /// Credentials given in code (e.g. from a keyring).
  ///
  /// - Parameters:
  ///   - user: The etcd user name.
  ///   - password: Its password.
  public init(user: String, password: String) {
    self.init(user: user, password: password, source: "code")
  }

  init(user: String, password: String, source: String) {
    self.user = user
    self.password = password
    self.source = source
  }

  /// Reads `user` and `password` from a file that only its owner can read or write.
  ///
  /// - Parameter path: The file (mode `0600` or `0400`).
  /// - Throws: ``EtcdConfigurationError`` when the file cannot be read, is readable or writable
  ///   by its group or others, or lacks a field.
  public static func read(fromFile path: String) throws -> EtcdCredentials {
    let text: String
    do {
      text = try SecretFile.text(of: path, what: "etcd credentials file")
    } catch {
      throw EtcdConfigurationError(error.message)
    }
    let fields = CloudConfigurationFile.fields(of: text)
    guard let user = fields["user"], !user.isEmpty, let password = fields["password"] else {
      throw EtcdConfigurationError(
        "the etcd credentials file \(path) needs both a `user = …` and a `password = …` line")
    }
    return EtcdCredentials(user: user, password: password, source: "file \(path)")
  }

  /// Credentials from ``userVariable`` and ``passwordVariable``, or nil when the user is not set.
  ///
  /// - Parameter environment: The environment to read (the process's by default).
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessEnvironment.all
  ) -> EtcdCredentials? {
    guard let user = environment[userVariable], !user.isEmpty else { return nil }
    return EtcdCredentials(
      user: user, password: environment[passwordVariable] ?? "",
      source: "environment (\(userVariable), \(passwordVariable))")
  }

  /// `etcd user <user> (from <source>)`.
  public var description: String {
    "etcd user \(user) (from \(source))"
  }
}

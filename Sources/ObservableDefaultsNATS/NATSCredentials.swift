import CNATS
import Foundation
import ObservableDefaultsCore

/// How a device proves to NATS who it is; the NATS account it lands in (the tenant) follows from
/// the user, as the server's configuration says.
///
/// Three forms, as the NATS server accepts them (https://docs.nats.io/running-a-nats-service/configuration/securing_nats/auth_intro):
/// a user and password; an NKey (the user's public key, and the file with its seed, which signs
/// the server's challenge); or a `.creds` file holding a user JWT and its NKey seed (decentralized
/// authentication with an operator). Files holding secrets must be readable by their owner only
/// (mode `0600` or `0400`), like the etcd backend's credentials file.
///
/// Nothing secret is ever printed: ``description`` names the form, the user or public key and
/// where the credentials came from, never a password or a seed, and a mirror of the value shows
/// no field.
public struct NATSCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  private enum Form: Sendable {
    case password(user: String, password: String)
    case nkey(publicKey: String, seedFile: String)
    case credsFile(String)
  }

  private let form: Form
  /// Where the credentials came from (`code`, a file path, or environment variables).
  public let source: String

  private init(_ form: Form, source: String) {
    self.form = form
    self.source = source
  }

  /// A user and password given in code (e.g. from a keyring).
  ///
  /// - Parameters:
  ///   - user: The NATS user.
  ///   - password: Its password.
  public static func user(_ user: String, password: String) -> NATSCredentials {
    NATSCredentials(.password(user: user, password: password), source: "code")
  }

  /// An NKey user: its public key (starting with `U`) and the file holding its seed (starting
  /// with `SU`), read by libnats at each connection.
  ///
  /// - Parameters:
  ///   - publicKey: The user's public NKey.
  ///   - seedFile: The seed file (mode `0600`).
  /// - Throws: ``NATSConfigurationError`` when the seed file cannot be read or is readable by
  ///   others.
  public static func nkey(_ publicKey: String, seedFile: String) throws -> NATSCredentials {
    try requireOwnerOnly(seedFile, what: "NATS NKey seed file")
    return NATSCredentials(
      .nkey(publicKey: publicKey, seedFile: seedFile), source: "file \(seedFile)")
  }

  /// A `.creds` file (a user JWT and its NKey seed, as `nsc` writes it), read by libnats at
  /// each connection.
  ///
  /// - Parameter path: The file (mode `0600`).
  /// - Throws: ``NATSConfigurationError`` when the file cannot be read or is readable by others.
  public static func credsFile(_ path: String) throws -> NATSCredentials {
    try requireOwnerOnly(path, what: "NATS credentials file")
    return NATSCredentials(.credsFile(path), source: "file \(path)")
  }

  /// A user and password from a file of `key = value` lines (mode `0600`):
  ///
  ///     user = alice
  ///     password = s3cret
  ///
  /// - Parameter path: The file.
  /// - Throws: ``NATSConfigurationError`` when the file cannot be read, is readable by others,
  ///   or lacks a field.
  public static func passwordFile(_ path: String) throws -> NATSCredentials {
    let text: String
    do {
      text = try SecretFile.text(of: path, what: "NATS password file")
    } catch {
      throw NATSConfigurationError(error.message)
    }
    let fields = CloudConfigurationFile.fields(of: text)
    guard let user = fields["user"], !user.isEmpty, let password = fields["password"] else {
      throw NATSConfigurationError(
        "the NATS password file \(path) needs both a `user = …` and a `password = …` line")
    }
    return NATSCredentials(.password(user: user, password: password), source: "file \(path)")
  }

  /// A user and password from the environment (see ``NATSConfiguration/variables``).
  static func password(user: String, password: String, source: String) -> NATSCredentials {
    NATSCredentials(.password(user: user, password: password), source: source)
  }

  private static func requireOwnerOnly(_ path: String, what: String) throws {
    do {
      _ = try SecretFile.text(of: path, what: what)
    } catch {
      throw NATSConfigurationError(error.message)
    }
  }

  /// Whether libnats signs the server's nonce with an NKey seed (an NKey or a `.creds` file).
  var signsNonce: Bool {
    if case .password = form { return false }
    return true
  }

  /// E.g. `NATS user alice (from file /home/alice/.config/ObservableDefaults/nats-password)`.
  public var description: String {
    switch form {
    case .password(let user, _): "NATS user \(user) (from \(source))"
    case .nkey(let publicKey, _): "NATS NKey \(publicKey) (from \(source))"
    case .credsFile: "NATS credentials (from \(source))"
    }
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// A mirror without children, so that `dump` and reflection show no secret.
  public var customMirror: Mirror { Mirror(self, children: [:]) }

  /// Hands the credentials to libnats.
  func apply(to options: OpaquePointer) throws(NATSError) {
    switch form {
    case .password(let user, let password):
      try NATSError.check(
        natsOptions_SetUserInfo(options, user, password), doing: "setting the NATS user")
    case .nkey(let publicKey, let seedFile):
      try NATSError.check(
        natsOptions_SetNKeyFromSeed(options, publicKey, seedFile), doing: "setting the NKey")
    case .credsFile(let path):
      try NATSError.check(
        natsOptions_SetUserCredentialsFromFiles(options, path, nil),
        doing: "reading the NATS credentials file \(path)")
    }
  }
}

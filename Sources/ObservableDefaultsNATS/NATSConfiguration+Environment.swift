import Foundation
public import ObservableDefaultsCore

extension NATSConfiguration {
  /// The environment variable naming the servers (comma-separated):
  /// `OBSERVABLE_DEFAULTS_NATS_SERVERS`.
  public static let serversVariable = "OBSERVABLE_DEFAULTS_NATS_SERVERS"

  /// The environment variables read by ``fromEnvironment(container:environment:)``, by key of
  /// the configuration file (`cloud.conf`, see `CloudConfigurationFile`).
  ///
  /// | key | variable | meaning |
  /// |---|---|---|
  /// | `nats-servers` | `OBSERVABLE_DEFAULTS_NATS_SERVERS` | the servers, comma-separated |
  /// | `account` | `OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT` | the account |
  /// | `nats-user` | `OBSERVABLE_DEFAULTS_NATS_USER` | a user (its password only in the variable `OBSERVABLE_DEFAULTS_NATS_PASSWORD`) |
  /// | `nats-password-file` | `OBSERVABLE_DEFAULTS_NATS_PASSWORD_FILE` | `user =` and `password =` lines (mode `0600`) |
  /// | `nats-nkey` | `OBSERVABLE_DEFAULTS_NATS_NKEY` | an NKey user's public key |
  /// | `nats-nkey-seed-file` | `OBSERVABLE_DEFAULTS_NATS_NKEY_SEED_FILE` | its seed (mode `0600`) |
  /// | `nats-creds-file` | `OBSERVABLE_DEFAULTS_NATS_CREDS_FILE` | a `.creds` file (mode `0600`) |
  /// | `nats-ca-file` | `OBSERVABLE_DEFAULTS_NATS_CA_FILE` | the CA bundle (PEM) |
  /// | `nats-cert-file` | `OBSERVABLE_DEFAULTS_NATS_CERT_FILE` | a client certificate (PEM) |
  /// | `nats-key-file` | `OBSERVABLE_DEFAULTS_NATS_KEY_FILE` | its private key (PEM) |
  /// | `nats-replicas` | `OBSERVABLE_DEFAULTS_NATS_REPLICAS` | replicas of a new bucket |
  /// | `nats-state-directory` | `OBSERVABLE_DEFAULTS_NATS_STATE_DIRECTORY` | the device's local copy |
  public static let variables: [String: String] = [
    "nats-servers": serversVariable,
    "account": CloudContainerDirectory.accountVariable,
    "nats-user": userVariable,
    "nats-password-file": "OBSERVABLE_DEFAULTS_NATS_PASSWORD_FILE",
    "nats-nkey": "OBSERVABLE_DEFAULTS_NATS_NKEY",
    "nats-nkey-seed-file": "OBSERVABLE_DEFAULTS_NATS_NKEY_SEED_FILE",
    "nats-creds-file": "OBSERVABLE_DEFAULTS_NATS_CREDS_FILE",
    "nats-ca-file": "OBSERVABLE_DEFAULTS_NATS_CA_FILE",
    "nats-cert-file": "OBSERVABLE_DEFAULTS_NATS_CERT_FILE",
    "nats-key-file": "OBSERVABLE_DEFAULTS_NATS_KEY_FILE",
    "nats-replicas": "OBSERVABLE_DEFAULTS_NATS_REPLICAS",
    "nats-state-directory": "OBSERVABLE_DEFAULTS_NATS_STATE_DIRECTORY",
  ]

  /// The environment variable of a user's name: `OBSERVABLE_DEFAULTS_NATS_USER`.
  public static let userVariable = "OBSERVABLE_DEFAULTS_NATS_USER"
  /// The environment variable of that user's password (never a file key, so that the
  /// configuration file holds no secret): `OBSERVABLE_DEFAULTS_NATS_PASSWORD`.
  public static let passwordVariable = "OBSERVABLE_DEFAULTS_NATS_PASSWORD"

  /// The configuration named by the environment and the cloud configuration file
  /// (`CloudConfigurationFile.url(environment:)`, the same `cloud.conf` as etcd's, with the
  /// keys of ``variables``), or nil when neither names servers.
  ///
  /// For each key of the file, the environment variable of ``variables`` wins. The credentials
  /// are the first of: a `.creds` file, an NKey and its seed file, a password file, a user and
  /// ``passwordVariable``. Every secret file must be readable by its owner only. The local copy
  /// goes in `nats-state-directory`, by default `$XDG_STATE_HOME/ObservableDefaults/nats`.
  ///
  /// - Parameters:
  ///   - container: The container (the program's name by default).
  ///   - environment: The environment to read.
  /// - Throws: ``NATSConfigurationError`` when the file cannot be read, a secret file is
  ///   unusable, an NKey lacks its seed file, or the replicas are not a number from 1 to 5.
  public static func fromEnvironment(
    container: String = CloudContainerDirectory.defaultContainer,
    environment: [String: String] = ProcessEnvironment.all
  ) throws -> NATSConfiguration? {
    let fields = try CloudConfigurationFile.fields(
      overriddenBy: variables, environment: environment, unreadable: NATSConfigurationError.init)
    let servers = (fields["nats-servers"] ?? "").split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    guard !servers.isEmpty else { return nil }
    var replicas = 3
    if let text = fields["nats-replicas"] {
      guard let number = Int(text), (1...5).contains(number) else {
        throw NATSConfigurationError(
          "nats-replicas (\(variables["nats-replicas"] ?? "")) is \"\(text)\"; use 1 to 5")
      }
      replicas = number
    }
    return NATSConfiguration(
      servers: servers, container: container,
      account: fields["account"].flatMap { $0.isEmpty ? nil : $0 } ?? "default",
      credentials: try credentials(fields, environment: environment),
      tls: CloudTLSFiles(
        caFile: fields["nats-ca-file"], certificateFile: fields["nats-cert-file"],
        keyFile: fields["nats-key-file"]),
      replicas: replicas,
      stateDirectory: fields["nats-state-directory"].map {
        URL(fileURLWithPath: $0, isDirectory: true)
      }
        ?? CloudDeviceJournal.defaultDirectory(engine: "nats", environment: environment))
  }

  private static func credentials(_ fields: [String: String], environment: [String: String])
    throws -> NATSCredentials?
  {
    if let path = fields["nats-creds-file"] { return try .credsFile(path) }
    if let publicKey = fields["nats-nkey"] {
      guard let seed = fields["nats-nkey-seed-file"] else {
        throw NATSConfigurationError(
          "the NATS NKey \(publicKey) needs its seed file (nats-nkey-seed-file or OBSERVABLE_DEFAULTS_NATS_NKEY_SEED_FILE)"
        )
      }
      return try .nkey(publicKey, seedFile: seed)
    }
    if let path = fields["nats-password-file"] { return try .passwordFile(path) }
    guard let user = fields["nats-user"], !user.isEmpty else { return nil }
    return .password(
      user: user, password: environment[passwordVariable] ?? "",
      source: "environment (\(userVariable), \(passwordVariable))")
  }
}

public import Foundation
public import ObservableDefaultsCore

/// Everything ``EtcdCloudBackend`` needs to reach a cluster as one device: the members, where the
/// keys live, the account and its credentials, TLS files, time limits, and the folder of the
/// device's local copy.
public struct EtcdConfiguration: Sendable {
  /// The members' client URLs (`http://host:2379` or `https://…`), tried in order on failure.
  public var endpoints: [String]
  /// The first component of every key (`/<root>/<container>/<account>/<key>`).
  public var root: String
  /// The container (an app's cloud store).
  public var container: String
  /// The account the device is signed into.
  public var account: String
  /// The etcd user, or nil when the cluster runs without authentication.
  public var credentials: EtcdCredentials?
  /// CA and client-certificate files for `https` endpoints.
  public var tls: CloudTLSFiles
  /// The proxy every request goes through (`http://proxy:3128`, `socks5h://…`, any form of
  /// libcurl's `CURLOPT_PROXY`), or nil to reach the members directly. The environment's
  /// `http_proxy`, `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY` are never used: a variable meant for
  /// web traffic must not send the account's credentials and records through another host.
  public var proxy: String?
  /// Seconds one request may take, failing over to other members included; also the longest a
  /// save waits before keeping its writes for later.
  public var requestTimeout: TimeInterval
  /// Seconds to wait for a connection to one member.
  public var connectTimeout: TimeInterval
  /// Seconds without a byte (not even a progress notification) after which a watch is
  /// reconnected.
  public var watchIdleTimeout: TimeInterval
  /// Seconds between the device's checks that a member answers (one count of the account's keys
  /// each; 0: none). A device whose cluster stops answering while it exchanges nothing else is
  /// `offline` within this plus ``requestTimeout`` (5 s with the defaults).
  public var heartbeatInterval: TimeInterval
  /// The folder of the device's local copy (values last seen, writes not yet acknowledged), so
  /// writes made offline survive a restart; nil keeps it in memory only.
  public var stateDirectory: URL?

  /// The default key root: `observable-defaults`.
  public static let defaultRoot = "observable-defaults"

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - endpoints: At least one member URL.
  ///   - root: The key root.
  ///   - container: The container name (default: the program's, as the embedded backend).
  ///   - account: The account (default: `$OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT` or `default`).
  ///   - credentials: The etcd user, if the cluster has authentication enabled.
  ///   - tls: TLS files for `https` endpoints.
  ///   - proxy: The proxy for every request, or nil for none.
  ///   - requestTimeout: Seconds per request (3).
  ///   - connectTimeout: Seconds per connection (1).
  ///   - watchIdleTimeout: Seconds of silence before a watch reconnects (60).
  ///   - heartbeatInterval: Seconds between checks that a member answers (2).
  ///   - stateDirectory: The device's local-copy folder, or nil for memory only.
  public init(
    endpoints: [String], root: String = defaultRoot,
    container: String = CloudContainerDirectory.defaultContainer,
    account: String = CloudContainerDirectory.defaultAccount, credentials: EtcdCredentials? = nil,
    tls: CloudTLSFiles = CloudTLSFiles(), proxy: String? = nil, requestTimeout: TimeInterval = 3,
    connectTimeout: TimeInterval = 1,
    watchIdleTimeout: TimeInterval = 60, heartbeatInterval: TimeInterval = 2,
    stateDirectory: URL? = nil
  ) {
    self.endpoints = endpoints
    self.root = root
    self.container = container
    self.account = account
    self.credentials = credentials
    self.tls = tls
    self.proxy = proxy
    self.requestTimeout = requestTimeout
    self.connectTimeout = connectTimeout
    self.watchIdleTimeout = watchIdleTimeout
    self.heartbeatInterval = heartbeatInterval
    self.stateDirectory = stateDirectory
  }

  /// The environment variable naming the endpoints (comma-separated):
  /// `OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS`. Setting it (or `endpoints` in the configuration file)
  /// selects etcd for `NSUbiquitousKeyValueStore/default`.
  public static let endpointsVariable = "OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS"

  /// The environment variables read by ``fromEnvironment(container:environment:)``, by
  /// configuration-file key.
  public static let variables: [String: String] = [
    "endpoints": endpointsVariable,
    "root": "OBSERVABLE_DEFAULTS_ETCD_ROOT",
    "account": CloudContainerDirectory.accountVariable,
    "credentials-file": "OBSERVABLE_DEFAULTS_ETCD_CREDENTIALS_FILE",
    "ca-file": "OBSERVABLE_DEFAULTS_ETCD_CA_FILE",
    "cert-file": "OBSERVABLE_DEFAULTS_ETCD_CERT_FILE",
    "key-file": "OBSERVABLE_DEFAULTS_ETCD_KEY_FILE",
    "state-directory": "OBSERVABLE_DEFAULTS_ETCD_STATE_DIRECTORY",
    "proxy": "OBSERVABLE_DEFAULTS_ETCD_PROXY",
  ]

  /// The configuration named by the environment and `CloudConfigurationFile`, or nil when
  /// neither names endpoints (the embedded backend stays then).
  ///
  /// For each key of the file, the environment variable of ``variables`` wins. Credentials come
  /// from `credentials-file` (mode `0600`), else from ``EtcdCredentials/userVariable`` and
  /// ``EtcdCredentials/passwordVariable``. The local copy goes in `state-directory`, by default
  /// `$XDG_STATE_HOME/ObservableDefaults/etcd` (`~/.local/state/…`). Requests go through `proxy`
  /// when it is set, else straight to the members (see ``proxy``).
  ///
  /// - Parameters:
  ///   - container: The container (the program's name by default).
  ///   - environment: The environment to read.
  /// - Throws: ``EtcdConfigurationError`` when the file cannot be read or the credentials file is
  ///   unusable.
  public static func fromEnvironment(
    container: String = CloudContainerDirectory.defaultContainer,
    environment: [String: String] = ProcessEnvironment.all
  ) throws -> EtcdConfiguration? {
    let fields = try CloudConfigurationFile.fields(
      overriddenBy: variables, environment: environment, unreadable: EtcdConfigurationError.init)
    let endpoints = (fields["endpoints"] ?? "").split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    guard !endpoints.isEmpty else { return nil }
    let credentials =
      try fields["credentials-file"].map(EtcdCredentials.read(fromFile:))
      ?? EtcdCredentials.fromEnvironment(environment)
    let state =
      fields["state-directory"].map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? CloudDeviceJournal.defaultDirectory(engine: "etcd", environment: environment)
    return EtcdConfiguration(
      endpoints: endpoints, root: fields["root"] ?? defaultRoot, container: container,
      account: fields["account"].flatMap { $0.isEmpty ? nil : $0 } ?? "default",
      credentials: credentials,
      tls: CloudTLSFiles(
        caFile: fields["ca-file"], certificateFile: fields["cert-file"], keyFile: fields["key-file"]
      ),
      proxy: fields["proxy"], stateDirectory: state)
  }
}

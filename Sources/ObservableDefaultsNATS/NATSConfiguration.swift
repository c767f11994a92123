public import Foundation
public import ObservableDefaultsCore

/// Everything ``NATSCloudBackend`` needs to reach a NATS cluster as one device: the servers, the
/// container and account, the credentials (which choose the NATS account, the tenant), TLS files
/// and time limits.
///
/// ```swift
/// let configuration = NATSConfiguration(
///   servers: ["tls://nats1.example.com:4222", "tls://nats2.example.com:4222"],
///   container: "com.example.app", account: "alice",
///   credentials: try .credsFile("/home/alice/.config/ObservableDefaults/alice.creds"),
///   tls: CloudTLSFiles(caFile: "/etc/ssl/nats/ca.pem"))
/// ```
public struct NATSConfiguration: Sendable {
  /// The servers' URLs (`nats://host:4222`, or `tls://…` for TLS), tried in a random order (libnats shuffles them, spreading devices over the servers); libnats also
  /// learns the other servers of the cluster from the one it reaches.
  public var servers: [String]
  /// The container (an app's cloud store): with ``account`` it names the bucket.
  public var container: String
  /// The account the device is signed into: its own bucket of the container (see
  /// ``NATSCloudBackend``).
  public var account: String
  /// The NATS user, or nil for a server without authentication (its global account).
  public var credentials: NATSCredentials?
  /// CA and client-certificate files (PEM) for TLS; a CA file, a client certificate or a
  /// `tls://` server turns TLS on.
  public var tls: CloudTLSFiles
  /// How many servers keep each bucket (JetStream replicas, 1–5) when this device creates it:
  /// 3 for a cluster of 3, so that a bucket survives a lost server. A single server needs 1.
  public var replicas: Int
  /// Seconds one request (a read, a write's acknowledgement, a connection) may take, tries
  /// again included. When the server leading a bucket is lost, JetStream elects another within
  /// 4–9 s (nats-server's Raft election timeout); a request that does not get an answer in time
  /// fails as unreachable, and the store keeps its writes for the next sync.
  public var requestTimeout: TimeInterval
  /// The folder of the device's local copy (its journal: the records last seen and the writes
  /// not yet acknowledged, kept across restarts; see `CloudDeviceJournal`), or nil to keep it in
  /// memory only. ``fromEnvironment(container:environment:)`` gives
  /// `$XDG_STATE_HOME/ObservableDefaults/nats` (`~/.local/state/…`) unless configured.
  public var stateDirectory: URL?

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - servers: At least one server URL.
  ///   - container: The container name (default: the program's, as the embedded backend).
  ///   - account: The account (default: `$OBSERVABLE_DEFAULTS_CLOUD_ACCOUNT` or `default`).
  ///   - credentials: The NATS user, if the servers require authentication.
  ///   - tls: TLS files.
  ///   - replicas: Replicas of a bucket this device creates (3).
  ///   - requestTimeout: Seconds per request (3).
  ///   - stateDirectory: The device's local-copy folder, or nil for memory only.
  public init(
    servers: [String], container: String = CloudContainerDirectory.defaultContainer,
    account: String = CloudContainerDirectory.defaultAccount,
    credentials: NATSCredentials? = nil, tls: CloudTLSFiles = CloudTLSFiles(), replicas: Int = 3,
    requestTimeout: TimeInterval = 3, stateDirectory: URL? = nil
  ) {
    self.servers = servers
    self.container = container
    self.account = account
    self.credentials = credentials
    self.tls = tls
    self.replicas = replicas
    self.requestTimeout = requestTimeout
    self.stateDirectory = stateDirectory
  }

  /// The servers, comma-separated, without any user or password written in a URL.
  var serverList: String {
    servers.map(Self.withoutUserInfo).joined(separator: ", ")
  }

  /// `url` without the `user:password@` part.
  static func withoutUserInfo(_ url: String) -> String {
    guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@")
    else { return url }
    return String(url[..<scheme.upperBound] + url[url.index(after: at)...])
  }
}

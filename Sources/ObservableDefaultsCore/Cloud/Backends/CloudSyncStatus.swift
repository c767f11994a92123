public import Foundation

/// How one device's connection to its container is doing: which backend, which endpoint,
/// whether it is connected, how many writes wait to be pushed, and when it last synced.
///
/// Read it from ``NSUbiquitousKeyValueStore/syncStatus`` (or ``CloudBackend/syncStatus``); a
/// snapshot, cheap to read, never blocking on the network.
///
/// ```swift
/// let status = NSUbiquitousKeyValueStore.default.syncStatus
/// print(status.backend, status.endpoint ?? "-", status.summary)   // etcd http://10.0.0.2:2379 offline, 3 pending
/// ```
public struct CloudSyncStatus: Sendable, Equatable, CustomStringConvertible {
  /// Whether the device reaches its container; the raw value is its name (`connected`, …).
  public enum Connection: String, Sendable, Equatable {
    /// The last exchange with the container succeeded.
    case connected
    /// Not known yet (no exchange finished).
    case connecting
    /// No member answered the last exchange; writes are kept and pushed when it answers again.
    case offline
    /// The servers refused the device's credentials or a permission it needs (``lastError``
    /// says which); writes are kept, and the device tries again.
    case refused
    /// The configuration cannot work (``lastError`` says why, in the servers' words: e.g. a
    /// bucket of 3 replicas on a single NATS server); the device does not try again until the
    /// configuration changes.
    case unusable = "unusable configuration"
  }

  /// The backend's kind: `embedded`, `in-memory` or `etcd`.
  public var backend: String
  /// Where the container is reached: the etcd member in use, or the embedded container's file.
  public var endpoint: String?
  /// The account the device is signed into.
  public var account: String
  /// Whether the device reaches its container.
  public var connection: Connection
  /// Writes made on this device that the container has not acknowledged yet.
  public var pendingCount: Int
  /// When the device last exchanged records with the container successfully (nil: never, in
  /// this process).
  public var lastSync: Date?
  /// The last failure's description (never holding credentials), nil after a success.
  public var lastError: String?

  /// Creates a status.
  public init(
    backend: String, endpoint: String?, account: String, connection: Connection,
    pendingCount: Int = 0,
    lastSync: Date? = nil, lastError: String? = nil
  ) {
    self.backend = backend
    self.endpoint = endpoint
    self.account = account
    self.connection = connection
    self.pendingCount = pendingCount
    self.lastSync = lastSync
    self.lastError = lastError
  }

  /// The connection's name (`connected`, `connecting`, `offline`, `refused`, `unusable
  /// configuration`), followed by `, N pending` when writes wait: e.g. `offline, 3 pending`.
  public var summary: String {
    pendingCount > 0 ? "\(connection.rawValue), \(pendingCount) pending" : connection.rawValue
  }

  /// `<backend> <endpoint>: <summary>`.
  public var description: String {
    "\(backend) \(endpoint ?? "-"): \(summary)"
  }
}

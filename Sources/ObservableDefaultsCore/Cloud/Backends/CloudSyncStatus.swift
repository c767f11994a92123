public import Foundation

/// How one device's connection to its container is doing: which backend, which endpoint,
/// whether it is connected, how many writes wait to be pushed, and when it last synced.
///
/// Its ``state`` says only what an exchange proved: `synced` when nothing is pending and the
/// last exchange reached a quorum of the servers (``reachedQuorum``), else the ``connection``
/// (`connected` only when the last exchange succeeded). A device that fell back to another
/// backend says so in ``fallback`` and in its ``summary``.
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

  /// The backend's kind: `embedded`, `in-memory`, `etcd` or `nats`.
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
  /// Whether the last exchange reached a quorum of the servers, as the backend states it: for
  /// etcd a linearizable request answered (or a watch event, which etcd sends only for a
  /// committed revision), for NATS a JetStream request answered, for the embedded container
  /// its file written or read under its lock. False while ``connection`` is not
  /// ``Connection/connected``.
  public var reachedQuorum: Bool
  /// The backend the configuration names and why this device does not use it (e.g.
  /// `etcd: the credentials file … must be readable by its owner only`), when the shared store
  /// fell back to its embedded container; nil otherwise.
  public var fallback: String?

  /// Creates a status.
  public init(
    backend: String, endpoint: String?, account: String, connection: Connection,
    pendingCount: Int = 0,
    lastSync: Date? = nil, lastError: String? = nil, reachedQuorum: Bool = false,
    fallback: String? = nil
  ) {
    self.backend = backend
    self.endpoint = endpoint
    self.account = account
    self.connection = connection
    self.pendingCount = pendingCount
    self.lastSync = lastSync
    self.lastError = lastError
    self.reachedQuorum = reachedQuorum && connection == .connected
    self.fallback = fallback
  }

  /// Whether everything written on this device is in the container, as far as a quorum of its
  /// servers confirmed: connected, the last exchange reached a quorum, and nothing is pending.
  public var isSynced: Bool {
    connection == .connected && reachedQuorum && pendingCount == 0
  }

  /// `synced` when ``isSynced``, else the ``connection``'s name (`connected`, `connecting`,
  /// `offline`, `refused`, `unusable configuration`).
  public var state: String {
    isSynced ? "synced" : connection.rawValue
  }

  /// The ``state`` (`synced`, `connected`, `connecting`, `offline`, `refused` or `unusable
  /// configuration`), followed by `, N pending` when writes wait and by the ``fallback``: e.g.
  /// `offline, 3 pending` or `synced, fallback from etcd: …`.
  public var summary: String {
    var text = state
    if pendingCount > 0 { text += ", \(pendingCount) pending" }
    if let fallback { text += ", fallback from \(fallback)" }
    return text
  }

  /// `<backend> <endpoint>: <summary>`.
  public var description: String {
    "\(backend) \(endpoint ?? "-"): \(summary)"
  }
}

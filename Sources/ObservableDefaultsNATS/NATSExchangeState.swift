import Foundation
import ObservableDefaultsCore

/// What a device's last exchange with the servers proved, for its ``CloudSyncStatus``: a device
/// is `connected` only when its last exchange succeeded, whatever libnats says of its socket (a
/// server with no JetStream quorum behind it keeps the socket up and answers every request with
/// "No responders").
struct NATSExchangeState: Sendable {
  /// How the last exchange ended.
  enum Outcome: Sendable, Equatable {
    /// No exchange finished yet.
    case none
    /// It succeeded (the servers took or answered everything asked).
    case succeeded
    /// No server answered (down, frozen, partitioned, or no JetStream quorum).
    case unreachable
    /// The servers refused: the credentials, a permission, or writes over the quota.
    case refused
    /// The configuration cannot work (see ``unusableCodes``): nothing is asked again.
    case unusable(NATSError)
  }

  /// JetStream's errors that no retry can cure, only another configuration: 10074 "replicas > 1
  /// not supported in non-clustered mode" (a bucket of more replicas than the servers form a
  /// cluster for), 10039 "JetStream not enabled for account" and 10076 "JetStream not enabled"
  /// (the codes of nats-server's `server/errors.json`).
  static let unusableCodes: Set<Int> = [10074, 10039, 10076]

  private(set) var outcome = Outcome.none
  /// The last successful exchange.
  private(set) var lastSync: Date?
  /// The last failure's description (never holding credentials), nil after a success.
  private var failure: String?
  /// The last push's refusal by the quota or the bucket's limits, until a push is taken whole.
  private var quotaRefusal: String?
  /// Whether the last exchange was a JetStream request that was answered. Every exchange of
  /// the backend is one, and JetStream answers a request on a replicated bucket only from the
  /// stream's leader, which acknowledges a write once a quorum of the stream's RAFT group
  /// committed it ("quorum commit", https://docs.nats.io/learn/clustering/replication-and-r3).
  /// A watch delivery does not set it: it proves that a server answers, not that its stream
  /// has a quorum now.
  private(set) var reachedQuorum = false

  /// What went wrong last: the last exchange's failure, else the last push's refusal.
  var lastError: String? { failure ?? quotaRefusal }

  /// Notes an exchange that succeeded.
  mutating func succeeded() {
    outcome = .succeeded
    lastSync = Date()
    failure = nil
    reachedQuorum = true
  }

  /// Notes a delivery of a watch. Before any exchange it proves that a server answers; after a
  /// failure it proves nothing: a watch can redeliver records from a server that cannot commit a
  /// write (quorum lost: a delivery had turned `offline, 3 pending` back into `connected` with no
  /// error while every save failed), so only the device's next exchange decides.
  mutating func delivered() {
    lastSync = Date()
    guard outcome == .none else { return }
    outcome = .succeeded
    failure = nil
  }

  /// Notes an exchange that failed with `error`.
  mutating func failed(_ error: any Error) {
    failure = "\(error)"
    reachedQuorum = false
    guard let error = error as? NATSError else {
      outcome = .refused
      return
    }
    switch error.kind {
    case .unreachable: outcome = .unreachable
    case .refused(let code) where Self.unusableCodes.contains(code): outcome = .unusable(error)
    default: outcome = .refused
    }
  }

  /// Notes that libnats closed the connection without giving a reason (`note` says so): no
  /// server answered, unless the servers refused the device, whose reason stands. libnats
  /// closes a connection after the servers refused its credentials, and its note of the close
  /// says nothing the refusal did not.
  mutating func closedWithoutReason(_ note: String) {
    guard outcome != .refused else { return }
    failed(NATSError(kind: .unreachable, message: note))
  }

  /// Notes a push the servers answered: they took every write, or refused `violation`'s keys
  /// for the quota or the bucket's limits (and took the others).
  mutating func pushed(refusing violation: CloudQuotaViolation?) {
    quotaRefusal = violation.map { "\($0)" }
  }

  /// Notes a failure outside an exchange (writing the journal's file), keeping the outcome.
  mutating func note(_ failure: String) {
    self.failure = failure
  }

  /// The error every exchange throws at once once the configuration proved unusable.
  var unusableError: NATSError? {
    if case .unusable(let error) = outcome { return error }
    return nil
  }

  /// The state to report when libnats says `socket` of its connection: `unusable` and
  /// `refused` whatever the socket; `offline` or `connecting` while libnats has no server;
  /// with one, `connected` only after a successful exchange (`refused` while the last push's
  /// refusal stands), `offline` after one no server answered, `connecting` before any.
  func connection(socket: CloudSyncStatus.Connection) -> CloudSyncStatus.Connection {
    switch outcome {
    case .unusable: return .unusable
    case .refused: return .refused
    case _ where socket != .connected: return socket
    case .succeeded: return quotaRefusal == nil ? .connected : .refused
    case .unreachable: return .offline
    case .none: return .connecting
    }
  }
}

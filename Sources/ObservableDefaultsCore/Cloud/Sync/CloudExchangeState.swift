package import Foundation

/// What a sync engine's device learned from its last exchange with the servers, for its
/// ``CloudSyncStatus``: `connected` only when the last exchange succeeded, `synced` only when it
/// reached a quorum (the engine says which of its exchanges do), whatever the engine's client
/// says of its sockets.
///
/// `Failure` is the engine's error; an ``Outcome/unusable(_:)`` configuration keeps it, to be
/// thrown at once by every later exchange.
package struct CloudExchangeState<Failure: Error & Sendable>: Sendable {
  /// How the last exchange ended.
  package enum Outcome: Sendable, Equatable {
    /// No exchange finished yet.
    case none
    /// It succeeded (the servers took or answered everything asked).
    case succeeded
    /// No server answered (down, frozen, partitioned, or no quorum behind the one that did).
    case unreachable
    /// The servers refused: the credentials, a permission, or writes over the quota.
    case refused
    /// The configuration cannot work: nothing is asked again until it changes.
    case unusable(Failure)

    /// Outcomes of the same case are equal; unusable ones when their errors say the same.
    package static func == (lhs: Outcome, rhs: Outcome) -> Bool {
      switch (lhs, rhs) {
      case (.none, .none), (.succeeded, .succeeded), (.unreachable, .unreachable),
        (.refused, .refused):
        return true
      case (.unusable(let left), .unusable(let right)): return "\(left)" == "\(right)"
      default: return false
      }
    }
  }

  package private(set) var outcome = Outcome.none
  /// The last successful exchange.
  package private(set) var lastSync: Date?
  /// Whether the last exchange reached a quorum of the servers (see
  /// ``CloudSyncStatus/reachedQuorum``).
  package private(set) var reachedQuorum = false
  /// How many failures were noted: an exchange that started when there were N succeeds only
  /// while there still are N (a reply received before a server died must not undo the failure
  /// seen after).
  package private(set) var failuresNoted = 0
  /// The last failure's description (never holding credentials), nil after a success.
  private var failure: String?
  /// The last push's refusal by the quota or the servers' limits, until a push is taken whole.
  private var quotaRefusal: String?

  package init() {}

  /// What went wrong last: the last exchange's failure, else the last push's refusal.
  package var lastError: String? { failure ?? quotaRefusal }

  /// Notes an exchange that succeeded and reached a quorum; one that started when
  /// `started` failures were noted (see ``failuresNoted``) counts only if none was noted since.
  package mutating func succeeded(startedAfter started: Int? = nil) {
    if let started, started != failuresNoted { return }
    outcome = .succeeded
    lastSync = Date()
    failure = nil
    reachedQuorum = true
  }

  /// Notes a watch's delivery of a committed revision (a quorum wrote it): a success, unless no
  /// server answered the last exchange (the next one says when they are back).
  package mutating func committedRevisionDelivered() {
    guard outcome != .unreachable else { return }
    succeeded()
  }

  /// Notes a watch's delivery that proves only that a server answers. Before any exchange it
  /// makes the device connected; after a failure it proves nothing: a server that lost its
  /// quorum can redeliver records while it cannot commit a write, so the next exchange decides.
  package mutating func delivered() {
    lastSync = Date()
    guard outcome == .none else { return }
    outcome = .succeeded
    failure = nil
  }

  /// Notes that a server answered a watch (its quorum unproven).
  ///
  /// - Returns: Whether the device was not connected before.
  package mutating func answered() -> Bool {
    guard outcome != .succeeded else { return false }
    reachedQuorum = false
    outcome = .succeeded
    return true
  }

  /// Notes an exchange that failed with `error`, ending as `outcome` (nil: the outcome stays,
  /// as for a request the servers refused for its own sake).
  package mutating func failed(_ error: any Error, as outcome: Outcome?) {
    failure = "\(error)"
    reachedQuorum = false
    failuresNoted += 1
    if let outcome { self.outcome = outcome }
  }

  /// Notes a push the servers answered: they took every write, or refused `violation`'s keys
  /// for the quota or their limits (and took the others).
  package mutating func pushed(refusing violation: CloudQuotaViolation?) {
    quotaRefusal = violation.map { "\($0)" }
  }

  /// Notes a failure outside an exchange (writing the journal's file), keeping the outcome.
  package mutating func note(_ failure: String) {
    self.failure = failure
  }

  /// The error every exchange throws at once once the configuration proved unusable.
  package var unusableError: Failure? {
    if case .unusable(let error) = outcome { return error }
    return nil
  }

  /// The state to report when the engine's client says `socket` of its connection: `unusable`
  /// and `refused` whatever the socket; `offline` or `connecting` while the client has no
  /// server; with one, `connected` only after a successful exchange (`refused` while the last
  /// push's refusal stands), `offline` after one no server answered, `connecting` before any.
  package func connection(socket: CloudSyncStatus.Connection = .connected)
    -> CloudSyncStatus.Connection
  {
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

import ObservableDefaultsCore

/// What a NATS device's last exchange with the servers proved, for its ``CloudSyncStatus``: a
/// device is `connected` only when its last exchange succeeded, whatever libnats says of its
/// socket (a server with no JetStream quorum behind it keeps the socket up and answers every
/// request with "No responders").
///
/// Every exchange of the backend is a JetStream request, which JetStream answers on a
/// replicated bucket only from the stream's leader, acknowledging a write once a quorum of the
/// stream's RAFT group committed it ("quorum commit",
/// https://docs.nats.io/learn/clustering/replication-and-r3): a success reaches a quorum. A watch
/// delivery proves only that a server answers (`delivered()`).
typealias NATSExchangeState = CloudExchangeState<NATSError>

extension NATSError {
  /// JetStream's errors that no retry can cure, only another configuration: 10074 "replicas > 1
  /// not supported in non-clustered mode" (a bucket of more replicas than the servers form a
  /// cluster for), 10039 "JetStream not enabled for account" and 10076 "JetStream not enabled"
  /// (the codes of nats-server's `server/errors.json`).
  static let unusableCodes: Set<Int> = [10074, 10039, 10076]
}

extension CloudExchangeState where Failure == NATSError {
  /// Notes an exchange that failed with `error`: no server answered, the configuration is
  /// unusable (``NATSError/unusableCodes``), or the servers refused.
  mutating func failed(_ error: any Error) {
    guard let error = error as? NATSError else {
      failed(error, as: .refused)
      return
    }
    switch error.kind {
    case .unreachable: failed(error, as: .unreachable)
    case .refused(let code) where NATSError.unusableCodes.contains(code):
      failed(error, as: .unusable(error))
    default: failed(error, as: .refused)
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
}

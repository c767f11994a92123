import ObservableDefaultsCore

/// Why a request to an etcd cluster failed. Messages name endpoints and etcd's explanation, never
/// a password or token.
public struct EtcdError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// No member gave an answer (all unreachable, timed out, without a leader or quorum).
    case unreachable
    /// The user's roles do not allow the operation on the key (gRPC `PermissionDenied`).
    case permissionDenied
    /// The user name or password was refused, or authentication is required and none is set.
    case authenticationFailed
    /// A watch or read asked for a revision that compaction removed; the payload is the
    /// compaction revision.
    case compacted(revision: Int64)
    /// A member answered something that is not an etcd reply (not JSON, or truncated).
    case malformedReply
    /// Any other error etcd reported, with its gRPC status code.
    case server(code: Int)
  }

  /// What went wrong.
  public let kind: Kind
  /// The explanation, from etcd or libcurl.
  public let message: String
  /// Whether the TLS handshake failed: a certificate or key the configuration names, which
  /// trying the same member again will not change.
  var isTLSFailure = false

  /// Creates an error.
  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  /// One line: `etcd:`, what went wrong (from ``kind``, with the revision or gRPC code it
  /// carries) and ``message``, such as `etcd: permission denied: …`. Never contains credentials.
  public var description: String {
    switch kind {
    case .unreachable: "etcd: no member answered: \(message)"
    case .permissionDenied: "etcd: permission denied: \(message)"
    case .authenticationFailed: "etcd: authentication failed: \(message)"
    case .compacted(let revision):
      "etcd: revision compacted (compaction at \(revision)): \(message)"
    case .malformedReply: "etcd: malformed reply: \(message)"
    case .server(let code): "etcd: error (gRPC code \(code)): \(message)"
    }
  }

  /// The error for a gateway error reply (its HTTP status and body fields).
  static func fromGateway(status: Int, code: Int?, message: String?, endpoint: String) -> EtcdError
  {
    let text = (message ?? "HTTP status \(status)") + " (\(endpoint))"
    let lowered = text.lowercased()
    switch code {
    case 7: return EtcdError(kind: .permissionDenied, message: text)
    case 16: return EtcdError(kind: .authenticationFailed, message: text)
    case 11 where lowered.contains("compacted"):
      return EtcdError(kind: .compacted(revision: 0), message: text)
    default: break
    }
    if lowered.contains("authentication failed") || lowered.contains("invalid auth token")
      || lowered.contains("user name is empty")
    {
      return EtcdError(kind: .authenticationFailed, message: text)
    }
    if lowered.contains("permission denied") {
      return EtcdError(kind: .permissionDenied, message: text)
    }
    if status == 503 || status == 504 || code == 14 || code == 4 || lowered.contains("no leader")
      || lowered.contains("timed out") || lowered.contains("leader changed")
    {
      return EtcdError(kind: .unreachable, message: text)
    }
    return EtcdError(kind: .server(code: code ?? -1), message: text)
  }

  /// Whether another member may answer where this one failed.
  var triesAnotherMember: Bool {
    kind == .unreachable || kind == .malformedReply
  }

  /// Whether a fresh token may help (the token expired or the member restarted).
  var isInvalidToken: Bool {
    kind == .authenticationFailed
      && (message.contains("invalid auth token") || message.contains("user name is empty"))
  }
}

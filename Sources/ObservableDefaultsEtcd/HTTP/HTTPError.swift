import ObservableDefaultsCore

/// Why an HTTP exchange with a server failed. Never holds a request's body or headers, so
/// credentials never reach an error message.
struct HTTPError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  enum Kind: Sendable, Equatable {
    /// No connection could be made, or it broke before a complete reply (the server may still
    /// have acted on the request).
    case unreachable
    /// No complete reply within the time allowed.
    case timedOut
    /// The reply is not valid HTTP, or is shorter than it announced (truncated).
    case malformedReply
    /// The TLS handshake failed (certificate not trusted, wrong host, missing client certificate).
    case tls
    /// The caller cancelled the exchange (a watch that was ended).
    case cancelled
  }

  /// What went wrong.
  let kind: Kind
  /// The server's base URL (`scheme://host:port`).
  let endpoint: String
  /// libcurl's explanation.
  let reason: String

  /// Creates an error.
  init(kind: Kind, endpoint: String, reason: String) {
    self.kind = kind
    self.endpoint = endpoint
    self.reason = reason
  }

  /// One line naming ``endpoint``, what went wrong (from ``kind``) and libcurl's ``reason``, such
  /// as `http://127.0.0.1:2379 did not answer in time: …`.
  var description: String {
    switch kind {
    case .unreachable: "\(endpoint) is unreachable: \(reason)"
    case .timedOut: "\(endpoint) did not answer in time: \(reason)"
    case .malformedReply: "\(endpoint) sent a malformed or truncated reply: \(reason)"
    case .tls: "TLS with \(endpoint) failed: \(reason)"
    case .cancelled: "the exchange with \(endpoint) was cancelled"
    }
  }
}

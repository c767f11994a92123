import CNATS
import Foundation

/// A failure of the NATS backend: the servers did not answer, or refused.
///
/// The message comes from libnats and the server (e.g. `stream not found`, `Authorization
/// Violation`); it never holds credentials.
public struct NATSError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, for code that decides what to do.
  public enum Kind: Sendable, Equatable {
    /// No server answered in time (all down, network cut, not connected yet), or the servers
    /// have not met as a cluster yet (JetStream error 10005, "no suitable peers for placement",
    /// for a bucket of more replicas than the servers that know each other); writes can be
    /// tried again later.
    case unreachable
    /// The server refused the credentials or the operation (an account's permissions).
    case permissionDenied
    /// The bucket (the JetStream stream `KV_<bucket>`) does not exist in the credentials' account.
    case notFound
    /// JetStream refused the request with this error code (see the NATS server's
    /// `server/errors.json`; e.g. 10071 wrong last sequence, 10077 store failed).
    case refused(code: Int)
    /// libnats (`libnats.so.3.4`) could not be loaded: it is loaded when a NATS configuration is
    /// first used, and the message names the Debian package that installs it (`libnats3.4`).
    case libraryMissing
  }

  /// What went wrong.
  public let kind: Kind
  /// What was being done and libnats' or the server's explanation.
  public let message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - message: What was being done, and why it failed.
  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  /// `nats: <message>`.
  public var description: String { "nats: \(message)" }

  /// The error of a libnats call that returned `status` (with JetStream's `code`), doing `what`.
  init(_ status: natsStatus, code: jsErrCode = jsErrCode(0), doing what: String) {
    var text = String(cString: natsStatus_GetText(status))
    // The thread's last error explains `status` only when it is about the same status: libnats
    // does not set it on every failure, so it may be left from an earlier call.
    var lastStatus = NATS_OK
    if let last = nats_GetLastError(&lastStatus), lastStatus == status {
      // libnats prefixes its last error with its source position: "(js.c:535): text".
      let full = String(cString: last)
      let start = full.range(of: "): ")?.upperBound ?? full.startIndex
      if !full[start...].isEmpty { text = String(full[start...]) }
    }
    let kind: Kind
    switch status {
    case NATS_NOT_FOUND: kind = .notFound
    case NATS_NOT_PERMITTED, NATS_CONNECTION_AUTH_FAILED: kind = .permissionDenied
    case NATS_TIMEOUT, NATS_NO_SERVER, NATS_NOT_YET_CONNECTED, NATS_CONNECTION_CLOSED,
      NATS_CONNECTION_DISCONNECTED, NATS_IO_ERROR, NATS_NO_RESPONDERS, NATS_STALE_CONNECTION:
      kind = .unreachable
    default:
      if code == JSStreamNotFoundErr {
        kind = .notFound
      } else if code == JSClusterNoPeersErr {
        // Just after a cluster starts its servers have not all met: placement works once they
        // have (a passing state, as a leader election is), so it is tried again.
        kind = .unreachable
        text += " (the servers have not formed a cluster for the bucket's replicas yet)"
      } else if code.rawValue != 0 {
        kind = .refused(code: Int(code.rawValue))
      } else if text.localizedCaseInsensitiveContains("permissions violation") {
        kind = .permissionDenied
      } else {
        kind = .refused(code: 0)
      }
    }
    self.init(kind: kind, message: "\(what): \(text)")
  }

  /// Throws the error of `status` unless it is `NATS_OK`.
  static func check(_ status: natsStatus, code: jsErrCode = jsErrCode(0), doing what: String)
    throws(NATSError)
  {
    if status != NATS_OK { throw NATSError(status, code: code, doing: what) }
  }
}

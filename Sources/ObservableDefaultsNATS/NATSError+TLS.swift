import CNATS
import ObservableDefaultsCore

extension NATSError {
  /// The error of a first connection to `configuration`'s servers that failed with `status`,
  /// saying so when TLS certificates are the reason (libnats' own text says it only in
  /// OpenSSL's terms, or not at all):
  ///
  /// - `NATS_SSL_ERROR`: the server's certificate is not signed by the CA file (or the system's
  ///   CAs without one), or is not for the host the device connects to (libnats checks the
  ///   name or IP address).
  /// - `NATS_PROTOCOL_ERROR` on TLS: a server with `verify: true` closes the connection right
  ///   after the handshake when the device has no client certificate of its CA.
  static func connecting(
    _ status: natsStatus, to configuration: NATSConfiguration, secure: Bool
  ) -> NATSError {
    let doing = "connecting to \(configuration.serverList)"
    let error = NATSError(status, doing: doing)
    guard secure else { return error }
    let reason = error.message.dropFirst(doing.count + 2)
    switch status {
    case NATS_SSL_ERROR:
      return NATSError(
        kind: .permissionDenied,
        message: "\(doing): TLS: the server's certificate is not trusted (not signed by the CA"
          + " file, or not for this host): \(reason)")
    case NATS_PROTOCOL_ERROR:
      let certificate =
        configuration.tls.certificateFile == nil
        ? "none is configured" : "the configured one is not"
      return NATSError(
        kind: .permissionDenied,
        message: "\(doing): TLS: the server closed the connection after the handshake, as a"
          + " server verifying clients does without a client certificate of its CA"
          + " (\(certificate)): \(reason)")
    default:
      return error
    }
  }
}

/// The files of a TLS connection to a sync engine (etcd, NATS): the certificate authority that
/// signed the servers' certificates, and an optional client certificate with its private key
/// (PEM files).
public struct CloudTLSFiles: Sendable, Equatable {
  /// The CA bundle that server certificates must chain to (PEM); nil: the system's store.
  public var caFile: String?
  /// This client's certificate (PEM), for servers that require client certificates.
  public var certificateFile: String?
  /// The private key of ``certificateFile`` (PEM).
  public var keyFile: String?

  /// Creates TLS settings.
  ///
  /// - Parameters:
  ///   - caFile: The CA bundle path; nil: the system's trust store.
  ///   - certificateFile: A client certificate path, or nil.
  ///   - keyFile: Its private key path, or nil.
  public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
    self.caFile = caFile
    self.certificateFile = certificateFile
    self.keyFile = keyFile
  }
}

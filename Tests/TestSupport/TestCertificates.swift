import Foundation
import ObservableDefaultsCore

/// A certificate authority and certificates made with `openssl` in a temporary folder for one
/// test (removed with the value): a CA, a server certificate for 127.0.0.1 and `localhost`, one
/// for `example.com` only (`elsewhere`), a client certificate, all signed by the CA, and another
/// CA that signed none. P-256 keys, so
/// that making them takes milliseconds.
public final class TestCertificates: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let temporary: TemporaryFolder
  public var folder: URL { temporary.url }

  /// Makes the CAs and certificates.
  public init() throws {
    temporary = try TemporaryFolder(prefix: "certificates")
    do {
      for ca in ["ca", "other-ca"] {
        try openssl(
          "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
          "-keyout", "\(ca).key", "-out", "\(ca).pem", "-days", "2", "-subj", "/CN=\(ca)")
      }
      try sign("server", extensions: "subjectAltName=IP:127.0.0.1,DNS:localhost")
      try sign("elsewhere", extensions: "subjectAltName=DNS:example.com")
      try sign("client", extensions: "extendedKeyUsage=clientAuth")
    } catch {
      temporary.remove()
      throw error
    }
  }

  /// The path of `name` (`ca.pem`, `other-ca.pem`, `server.pem`, `server.key`,
  /// `elsewhere.pem`, `elsewhere.key`, `client.pem`, `client.key`).
  public func path(_ name: String) -> String {
    folder.appendingPathComponent(name).path
  }

  /// The CA file, with the client certificate when `client` is true.
  public func files(ca: String? = "ca.pem", client: Bool = false) -> CloudTLSFiles {
    CloudTLSFiles(
      caFile: ca.map(path), certificateFile: client ? path("client.pem") : nil,
      keyFile: client ? path("client.key") : nil)
  }

  /// Makes `<name>.key` and `<name>.pem`, signed by `ca.pem`, with the `openssl x509`
  /// `extensions`.
  private func sign(_ name: String, extensions: String) throws {
    try openssl(
      "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
      "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(name)")
    try Data(extensions.utf8).write(to: folder.appendingPathComponent("\(name).ext"))
    try openssl(
      "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key",
      "-CAcreateserial", "-out", "\(name).pem", "-days", "2", "-extfile", "\(name).ext")
  }

  private func openssl(_ arguments: String...) throws {
    guard let program = LoopbackServer.executable("openssl") else {
      throw Failure(description: "the TLS tests need openssl: apt-get install openssl")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(
        description: "openssl \(arguments.joined(separator: " ")): "
          + String(decoding: message, as: UTF8.self))
    }
  }
}

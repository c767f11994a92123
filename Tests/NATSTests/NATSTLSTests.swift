import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// TLS end to end on one JetStream server whose certificate a test CA signed (made with
/// `openssl` in a temporary folder): a device trusting the CA syncs; one trusting another CA, or
/// none, is refused for the certificate; with `verify: true` the server refuses a device
/// without a client certificate of the CA.
@Suite struct NATSTLSTests {
  let certificates: TestCertificates
  let container = freshNATSContainer()

  init() throws {
    certificates = try TestCertificates()
  }

  /// One TLS server with the certificate `certificate` (`server` or `elsewhere`); `verify` asks
  /// every client for a certificate of the CA.
  func server(verify: Bool = false, certificate: String = "server") async throws -> NATSTestCluster
  {
    let tls =
      ["cert_file": "\(certificate).pem", "key_file": "\(certificate).key", "ca_file": "ca.pem"]
      .map { "\($0.key): \"\(certificates.path($0.value))\"" }.sorted()
      .joined(separator: ", ") + ", timeout: 2" + (verify ? ", verify: true" : "")
    return try await NATSTestCluster.started(
      .init(
        size: 1, tls: tls, clientTLS: certificates.files(client: verify),
        readinessHost: certificate == "server" ? nil : "example.com", accountStorage: "64MB",
        serverStorage: "128MB"))
  }

  /// A device of account A on `server` with the TLS files `tls`.
  func device(on server: NATSTestCluster, tls: CloudTLSFiles) throws -> NATSCloudBackend {
    var configuration = server.configuration(container: container)
    configuration.tls = tls
    configuration.servers = configuration.servers.map {
      $0.replacingOccurrences(of: "nats://", with: "tls://")
    }
    return try NATSCloudBackend(configuration: configuration)
  }

  /// How the server refused a device with `tls` at its launch.
  func refusal(on server: NATSTestCluster, tls: CloudTLSFiles) -> String {
    refusalAtLaunch { try device(on: server, tls: tls) }
  }

  @Test func aDeviceTrustingTheServersCASyncs() async throws {
    let server = try await server()
    let writer = try device(on: server, tls: certificates.files())
    try writer.save([
      "theme": CloudRecord(
        value: "dark", timestamp: CloudTimestamp(time: 1, counter: 0, device: "w"))
    ])
    let reader = try device(on: server, tls: certificates.files())
    #expect(try reader.load().records["theme"]?.value as? String == "dark")
    #expect(
      reader.syncStatus.endpoint
        == server.urls[0].replacingOccurrences(of: "nats://", with: "tls://"))
  }

  /// The start of the error of a device refused for the server's certificate.
  func untrusted(_ server: NATSTestCluster) -> String {
    "nats: connecting to \(server.urls[0].replacingOccurrences(of: "nats://", with: "tls://")):"
      + " TLS: the server's certificate is not trusted (not signed by the CA file, or not for this"
      + " host): SSL handshake error: "
  }

  @Test func aDeviceTrustingAnotherCAOrNoneIsRefusedForTheCertificate() async throws {
    let server = try await server()
    let refusals = [certificates.files(ca: "other-ca.pem"), certificates.files(ca: nil)].map {
      refusal(on: server, tls: $0)
    }
    let issuer = "20:unable to get local issuer certificate:depth=0:cert=/CN=server:issuer=/CN=ca"
    #expect(refusals == Array(repeating: untrusted(server) + issuer, count: 2))
  }

  @Test func aCertificateOfTheCAForAnotherHostIsRefused() async throws {
    let server = try await server(certificate: "elsewhere")
    #expect(
      refusal(on: server, tls: certificates.files())
        == untrusted(server) + "64:IP address mismatch:depth=0:cert=/CN=elsewhere:issuer=/CN=ca")
  }

  @Test func aServerVerifyingClientsRefusesADeviceWithoutItsCertificate() async throws {
    let server = try await server(verify: true)
    let url = server.urls[0].replacingOccurrences(of: "nats://", with: "tls://")
    let closed =
      "nats: connecting to \(url): TLS: the server closed the connection after the handshake, as"
      + " a server verifying clients does without a client certificate of its CA"
    #expect(
      refusal(on: server, tls: certificates.files())
        == closed + " (none is configured): Expected 'PONG', got ''")
    let device = try device(on: server, tls: certificates.files(client: true))
    #expect(try device.load().records.isEmpty)
  }
}

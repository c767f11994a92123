import CNATS
import Foundation
import ObservableDefaultsCore
import ObservableDefaultsNATS
import TestSupport
import Testing

/// libnats before 3.8 (Debian's is 3.4.1) sends no signature when an NKey's ed25519 signature
/// of the server's nonce starts with a zero byte, 1 connection in 256 (nats-io/nats.c#705), and
/// the server refuses it with `Authorization Violation`: a device with an NKey or a `.creds`
/// file whose first connection met such a nonce was not made. The device connects again at
/// once, with another nonce.
@Suite struct NATSNonceSignatureTests {
  @Test func aConnectionRefusedForTheSignatureLibnatsLeftOutIsMadeAgain() async throws {
    try await withTemporaryFolder { folder in
      let pair = try NKeyPair(seedFile: folder.file("device.nk"))
      let server = try NATSNonceServer(key: pair, folder: folder.url)
      defer { server.remove() }
      let device = try NATSCloudBackend(
        configuration: NATSConfiguration(
          servers: [server.url], container: freshNATSContainer(),
          credentials: try .nkey(pair.publicKey, seedFile: pair.seedFile.path), replicas: 1))
      let fixed = nats_GetVersionNumber() >= 0x03_08_00
      #expect(try server.connections() == (fixed ? ["signed"] : ["unsigned", "signed"]))
      #expect(device.syncStatus.lastError == nil)
    }
  }
}

import Foundation
import ObservableDefaultsCore
import ObservableDefaultsNATS
import TestSupport
import Testing

/// NKey users against a real server: a device signing with its seed file syncs; a device with
/// an NKey the server does not know is refused, and no error shows a seed.
@Suite struct NATSNKeyTests {
  @Test func aDeviceSigningWithItsNKeySeedSyncsAndAnUnknownNKeyIsRefused() async throws {
    try await withTemporaryFolder { folder in
      let known = try NKeyPair(seedFile: folder.file("known.nk"))
      let unknown = try NKeyPair(seedFile: folder.file("unknown.nk"))
      var options = NATSTestCluster.Options()
      (options.size, options.accountStorage, options.serverStorage) = (1, "64MB", "128MB")
      options.nkeyUsersOfA = [known.publicKey]
      let server = try await NATSTestCluster.started(options)
      defer { server.remove() }
      let container = freshNATSContainer()
      func device(_ pair: NKeyPair) throws -> NATSCloudBackend {
        var configuration = server.configuration(container: container)
        configuration.credentials = try .nkey(pair.publicKey, seedFile: pair.seedFile.path)
        return try NATSCloudBackend(configuration: configuration)
      }
      let writer = try device(known)
      try writer.save([
        "theme": CloudRecord(
          value: "dark", timestamp: CloudTimestamp(time: 1, counter: 0, device: "w"))
      ])
      #expect(try device(known).load().records["theme"]?.value as? String == "dark")
      #expect(writer.syncStatus.account == "default")

      let refusal = refusalAtLaunch { try device(unknown) }
      #expect(refusal == "nats: connecting to \(server.urls[0]): Authorization Violation")
      let seed = try String(contentsOf: unknown.seedFile, encoding: .utf8)
      #expect(seed.hasPrefix("SU"))
      #expect(!refusal.contains(seed))
    }
  }
}

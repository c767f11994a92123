import Foundation
import ObservableDefaultsCore
import ObservableDefaultsNATS
import TestSupport
import Testing

/// `.creds` files against a real server in operator mode (decentralized authentication): a
/// device named by `OBSERVABLE_DEFAULTS_NATS_CREDS_FILE` syncs with another device of the same
/// user; a user signed by an account key the server does not know, and a user JWT naming the
/// tenant as issuer but signed by another key, are refused, and no error shows a seed. (A
/// `.creds` file readable by others is refused by the configuration:
/// `NATSConfigurationTests.secretFilesReadableByOthersAreRefusedNamingTheFix`.)
@Suite struct NATSCredsFileTests {
  @Test func aDeviceWithACredsFileSyncsAndUsersOfUnknownOrForgedAccountsAreRefused() async throws {
    try await withTemporaryFolder { folder in
      let trust = try NATSOperatorMode(folder: folder.url)
      var options = NATSTestCluster.Options()
      (options.size, options.serverStorage, options.operatorMode) = (1, "128MB", trust)
      let server = try await NATSTestCluster.started(options)
      defer { server.remove() }
      let container = freshNATSContainer()
      func device(_ user: NATSOperatorMode.User, state: String) throws -> NATSCloudBackend {
        let environment = [
          "XDG_CONFIG_HOME": folder.file("no-config").path,
          "OBSERVABLE_DEFAULTS_NATS_SERVERS": server.urls[0],
          "OBSERVABLE_DEFAULTS_NATS_CREDS_FILE": user.credsFile.path,
          "OBSERVABLE_DEFAULTS_NATS_REPLICAS": "1",
          "OBSERVABLE_DEFAULTS_NATS_STATE_DIRECTORY": folder.file(state).path,
        ]
        let configuration = try #require(
          try NATSConfiguration.fromEnvironment(container: container, environment: environment))
        #expect(
          "\(try #require(configuration.credentials))"
            == "NATS credentials (from file \(user.credsFile.path))")
        return try NATSCloudBackend(configuration: configuration)
      }

      let alice = try trust.user("alice-device")
      let writer = try device(alice, state: "writer")
      try writer.save([
        "theme": CloudRecord(
          value: "dark", timestamp: CloudTimestamp(time: 1, counter: 0, device: "w"))
      ])
      let reader = try device(alice, state: "reader")
      #expect(try reader.load().records["theme"]?.value as? String == "dark")
      #expect(writer.syncStatus.connection == .connected)
      #expect(writer.syncStatus.lastError == nil)

      let stranger = try NKeyPair(.account, seedFile: folder.file("stranger.nk"))
      let refused = [
        try trust.user("mallory-device", of: stranger),
        try trust.user("forger-device", of: trust.tenant.forged(withSeedOf: stranger)),
      ]
      for user in refused {
        let refusal = refusalAtLaunch { try device(user, state: "refused") }
        #expect(refusal == "nats: connecting to \(server.urls[0]): Authorization Violation")
        let seeds = [try user.key.seed(), try stranger.seed()]
        #expect(seeds.allSatisfy { $0.hasPrefix("S") && !refusal.contains($0) })
      }
      let seed = try alice.key.seed()
      #expect(seed.hasPrefix("SU"))
      let credentials = try #require(writer.configuration.credentials)
      #expect(
        !"\(writer.syncStatus) \(credentials) \(String(reflecting: credentials))".contains(seed))
    }
  }
}

import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// Launch never blocks the first read of local values on the network (issue 37).
@Suite struct NATSLaunchTests {
  /// A device launched while no server is reachable (nothing listens on its server's port, so
  /// its first load waits for the request timeout, 3 s) answers its first read from its journal
  /// within the bound of the etcd test (`EtcdFaultMatrixTests`): under 1 s.
  @Test func launchingWithNoReachableServerDoesNotBlockTheFirstRead() async throws {
    try await withTemporaryFolder { folder in
      var configuration = NATSConfiguration(
        servers: ["nats://127.0.0.1:\(try LoopbackServer.freePorts(1)[0])"],
        container: freshNATSContainer(), stateDirectory: folder.url)
      configuration.requestTimeout = 0.5
      let ended = try await runDeviceToItsEnd(configuration) { store in
        store.set("journaled", forKey: "k")
        #expect(!store.synchronize())
      }
      #expect(ended)

      configuration.requestTimeout = 3
      let started = ContinuousClock.now
      let store = NSUbiquitousKeyValueStore(
        backend: try NATSCloudBackend(configuration: configuration))
      let value = store.string(forKey: "k")
      let elapsed = ContinuousClock.now - started
      #expect(value == "journaled")
      #expect(elapsed < .seconds(1), "the first read took \(elapsed)")
    }
  }
}

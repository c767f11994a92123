import CNATS
import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// Just after a cluster starts, its servers have not all met, and JetStream refuses a bucket of
/// 3 replicas with error 10005, "no suitable peers for placement": a passing state, which the
/// device tries again (it was `refused` for good before), never saying `connected` or `synced`
/// until an exchange succeeded.
@Suite struct NATSClusterFormingTests {
  @Test func noSuitablePeersIsTriedAgainUntilTheServersHaveMet() {
    let error = NATSError(NATS_ERR, code: JSClusterNoPeersErr, doing: "creating the bucket b")
    #expect(error.kind == .unreachable)
    var state = NATSExchangeState()
    state.failed(error)
    #expect(state.outcome == .unreachable)
  }

  /// Two of three servers met; the third starts only after the device launched and wrote. The
  /// device waits `offline` with JetStream's reason, then sends its write without the program
  /// writing again.
  @Test func aDeviceLaunchedBeforeTheThirdServerJoinedSyncsOnceItHas() async throws {
    var options = NATSTestCluster.Options()
    options.notStarted = 1
    let cluster = try await NATSTestCluster.started(options)
    defer { cluster.remove() }
    try await withTemporaryFolder { folder in
      var configuration = cluster.configuration(
        container: freshNATSContainer(), only: Array(cluster.servers.prefix(2)))
      configuration.stateDirectory = folder.url
      let store = NSUbiquitousKeyValueStore(
        backend: try NATSCloudBackend(configuration: configuration))
      store.set("v", forKey: "k")
      // Every state seen while JetStream refused the placement, and every one after.
      var whileRefused: Set<String> = []
      var seen: Set<String> = []
      func look() -> CloudSyncStatus {
        let status = store.syncStatus
        seen.insert(status.summary)
        if status.lastError?.contains("no suitable peers for placement") == true {
          whileRefused.insert(status.summary)
        }
        return status
      }
      #expect(pollBlocking { !whileRefused.isEmpty || look().summary == "synced" })
      #expect(whileRefused == ["offline, 1 pending"], "\(seen)")
      try cluster.servers[2].start()
      try await cluster.waitUntilReady([cluster.servers[2]])
      #expect(await poll { look().summary == "synced" }, "\(store.syncStatus)")
      #expect(whileRefused == ["offline, 1 pending"], "\(seen)")
      #expect(!seen.contains { $0.hasPrefix("refused") || $0.hasPrefix("unusable") }, "\(seen)")
      let reader = try NATSCloudBackend(
        configuration: cluster.configuration(container: configuration.container))
      #expect(try reader.load().records["k"]?.value as? String == "v")
    }
  }
}

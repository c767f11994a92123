import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsEtcd

/// Issue 25: the connection state is true while the device writes nothing — a device whose
/// members all stop answering (stopped processes keep their sockets open, so nothing fails) is
/// `offline` within the heartbeat interval plus the request timeout, and `connected` again
/// once a member answers.
@Suite struct EtcdConnectionStateTests {
  /// A store of a device of `cluster` that wrote one key and synchronized.
  func syncedStore(
    _ cluster: EtcdTestCluster, requestTimeout: TimeInterval, heartbeatInterval: TimeInterval
  ) throws -> NSUbiquitousKeyValueStore {
    let device = try EtcdCloudBackend(
      configuration: EtcdConfiguration(
        endpoints: cluster.endpoints, root: freshEtcdRoot(), container: "state", account: "a",
        requestTimeout: requestTimeout, heartbeatInterval: heartbeatInterval))
    let store = NSUbiquitousKeyValueStore(backend: device)
    store.set("v", forKey: "k")
    #expect(store.synchronize())
    #expect(store.syncStatus.summary == "synced")
    return store
  }

  @Test func aDeviceThatWritesNothingSeesItsStoppedClusterGoOfflineAndComeBack() async throws {
    let cluster = try await EtcdTestCluster.started(size: 3)
    defer { cluster.remove() }
    let store = try syncedStore(cluster, requestTimeout: 1, heartbeatInterval: 1)

    for member in cluster.members { member.pause() }
    defer { for member in cluster.members { member.pause(false) } }
    // Heartbeat 1 s + request timeout 1 s (a request tries the members in turn within it).
    #expect(await poll(within: .seconds(30)) { store.syncStatus.connection == .offline })
    #expect(store.syncStatus.lastError?.hasPrefix("etcd: no member answered") == true)

    for member in cluster.members { member.pause(false) }
    #expect(await poll(within: .seconds(30)) { store.syncStatus.summary == "synced" })
    #expect(store.string(forKey: "k") == "v")
  }

  /// Issue 37: a device whose members are all killed is `offline` at its first failed exchange
  /// (the watch's round over every member), not after the heartbeat plus the request timeout
  /// (2 s + 5 s here), and says nothing else while no member runs (a reply received before the
  /// kill does not undo it).
  @Test func everyMemberKilledIsOfflineAtTheFirstFailedExchange() async throws {
    let cluster = try await EtcdTestCluster.started(size: 3)
    defer { cluster.remove() }
    let store = try syncedStore(cluster, requestTimeout: 5, heartbeatInterval: 2)

    for member in cluster.members { cluster.kill9(member) }
    let killed = ContinuousClock.now
    // Blocking, so the time measured is the device's, not the wait of a suspended test task
    // for a thread of the concurrency pool (which other tests' blocking calls hold).
    #expect(pollBlocking(within: .seconds(10)) { store.syncStatus.connection == .offline })
    // Measured: 0.3–1.5 s on a loaded 2-core machine; without the watch's round, 6.6–12 s.
    #expect(ContinuousClock.now - killed < .seconds(3))
    store.set("w", forKey: "later")
    var seen: Set<String> = []
    // Every state it gives over 8 s with no member running.
    await poll(within: .seconds(8)) {
      seen.insert(store.syncStatus.summary)
      return false
    }
    #expect(seen == ["offline, 1 pending"])
  }
}

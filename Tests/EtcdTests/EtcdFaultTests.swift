import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsEtcd

/// Faults on a real cluster of its own per test: a leader killed during writes, a compaction
/// while a device is disconnected, quorum lost and regained, a device restarted while offline.
@Suite(.serialized) struct EtcdFaultTests {
  typealias EventLog = CloudEventLog

  func record(_ value: Any?, at time: Int64, by device: String = "writer") -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: device))
  }

  func configuration(
    _ members: [EtcdTestCluster.Member], root: String, requestTimeout: TimeInterval = 5,
    stateDirectory: URL? = nil
  ) -> EtcdConfiguration {
    EtcdConfiguration(
      endpoints: members.map(\.clientURL), root: root, container: "faults", account: "a",
      requestTimeout: requestTimeout, stateDirectory: stateDirectory)
  }

  @Test func leaderKilledDuringAWriteLoopLosesNoWriteAndDuplicatesNoEvent() async throws {
    let cluster = try await EtcdTestCluster.started(size: 3)
    defer { cluster.remove() }
    var leader: EtcdTestCluster.Member?
    #expect(
      await poll(within: .seconds(20)) {
        leader = cluster.leader()
        return leader != nil
      })
    let killed = try #require(leader)
    // Both devices use the leader first, so both the writes and the watch must fail over.
    let ordered = [killed] + cluster.members.filter { $0 !== killed }
    let root = freshEtcdRoot()
    let writer = try EtcdCloudBackend(configuration: configuration(ordered, root: root))
    let reader = try EtcdCloudBackend(configuration: configuration(ordered, root: root))
    let log = EventLog()
    let subscription = reader.subscribe(from: try reader.load().cursor, log.handler)
    for index in 0..<60 {
      if index == 20 { cluster.kill9(killed) }
      try writer.save(["k\(index)": record(index, at: Int64(index + 1))])
    }
    #expect(await poll(within: .seconds(60)) { writer.syncStatus.pendingCount == 0 })
    #expect(await poll(within: .seconds(60)) { log.changedKeys.joined().count >= 60 })
    let delivered = Array(log.changedKeys.joined())
    #expect(delivered.count == 60)
    #expect(Set(delivered) == Set((0..<60).map { "k\($0)" }))
    let survivors = cluster.members.filter { $0 !== killed }
    let stored = try EtcdCloudBackend(configuration: configuration(survivors, root: root)).load()
      .records
    #expect(stored.count == 60)
    let values = stored.compactMapValues { $0.value as? Int }
    #expect(values == Dictionary(uniqueKeysWithValues: (0..<60).map { ("k\($0)", $0) }))
    withExtendedLifetime(subscription) {}
  }

  @Test func compactionDuringADisconnectGivesOneChangeNamingOnlyChangedKeys() async throws {
    let cluster = try await EtcdTestCluster.started(size: 3)
    defer { cluster.remove() }
    let (first, second, third) = (cluster.members[0], cluster.members[1], cluster.members[2])
    let root = freshEtcdRoot()
    let writer = try EtcdCloudBackend(configuration: configuration([first, second], root: root))
    try writer.save([
      "a": record("old", at: 1), "b": record("same", at: 1), "c": record("untouched", at: 1),
    ])
    // The reader knows only the third member, so killing it disconnects the reader alone.
    let readerBackend = try EtcdCloudBackend(configuration: configuration([third], root: root))
    let reader = NSUbiquitousKeyValueStore(backend: readerBackend)
    #expect(reader.string(forKey: "a") == "old")
    let notifications = CloudNotificationLog(reader)
    cluster.kill9(third)
    // "b" is written again with the value it has: a newer revision, but no change.
    try writer.save(["a": record("new", at: 2), "b": record("same", at: 2)])
    try cluster.compact(to: try cluster.revision())
    try cluster.start(third)
    #expect(await poll(within: .seconds(60)) { reader.string(forKey: "a") == "new" })
    #expect(await poll { !notifications.all.isEmpty })
    #expect(
      notifications.all == [.init(reason: NSUbiquitousKeyValueStoreServerChange, keys: ["a"])])
    #expect(reader.string(forKey: "b") == "same")
    #expect(reader.string(forKey: "c") == "untouched")
  }

  @Test func quorumLostThenRegainedDeliversThePendingWrites() async throws {
    let cluster = try await EtcdTestCluster.started(size: 3)
    defer { cluster.remove() }
    let root = freshEtcdRoot()
    let device = try EtcdCloudBackend(
      configuration: configuration(cluster.members, root: root, requestTimeout: 1))
    let store = NSUbiquitousKeyValueStore(backend: device)
    store.set("v0", forKey: "before")
    #expect(store.synchronize())
    #expect(device.syncStatus.summary == "synced")
    cluster.kill9(cluster.members[1])
    cluster.kill9(cluster.members[2])
    for index in 1...3 { store.set("v\(index)", forKey: "k\(index)") }
    #expect(await poll(within: .seconds(30)) { device.syncStatus.summary == "offline, 3 pending" })
    #expect(store.syncStatus.summary == "offline, 3 pending", "each write counted once")
    #expect(store.string(forKey: "k3") == "v3")
    try cluster.start(cluster.members[1])
    try cluster.start(cluster.members[2])
    #expect(await poll(within: .seconds(60)) { device.syncStatus.pendingCount == 0 })
    #expect(device.syncStatus.summary == "synced")
    let stored = try EtcdCloudBackend(configuration: configuration(cluster.members, root: root))
      .load().records
    #expect(
      stored.mapValues { $0.value as? String } == [
        "before": "v0", "k1": "v1", "k2": "v2", "k3": "v3",
      ])
  }

  /// Three runs of `defaults-probe` as one device (same journal folder), its backend chosen by the
  /// environment: online, then offline (the write stays in the journal), then online again after
  /// the restart (the write is pushed).
  @Test func aWriteMadeOfflineIsPushedByTheRestartedDevice() async throws {
    let cluster = try await EtcdTestCluster.started(size: 1)
    defer { cluster.remove() }
    try await withTemporaryFolder { folder in
      let root = freshEtcdRoot()
      let environment = [
        EtcdConfiguration.endpointsVariable: cluster.endpoints[0],
        "OBSERVABLE_DEFAULTS_ETCD_ROOT": root,
        "OBSERVABLE_DEFAULTS_ETCD_STATE_DIRECTORY": folder.file("state").path,
        "XDG_CONFIG_HOME": folder.file("config").path,
      ]
      let online = try DefaultsProbe.run(
        ["default-cloud-set", "before", "1"], environment: environment)
      #expect(online.output == "etcd synced\n")
      cluster.kill9(cluster.members[0])
      let offline = try DefaultsProbe.run(
        ["default-cloud-set", "offline", "2"], environment: environment)
      #expect(offline.output == "etcd offline, 1 pending\n")
      try cluster.start(cluster.members[0])
      try await cluster.waitUntilHealthy()
      let restarted = try DefaultsProbe.run(
        ["default-cloud-get", "offline"], environment: environment)
      #expect(restarted.output == "etcd synced\n2\n")
      let stored = try EtcdCloudBackend(
        configuration: EtcdConfiguration(
          endpoints: cluster.endpoints, root: root, container: "defaults-probe")
      ).load().records
      #expect(stored.mapValues { $0.value as? String } == ["before": "1", "offline": "2"])
    }
  }
}

import CNATS
import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// The state says only what an exchange proved: a configuration the servers cannot serve is
/// `unusable configuration` with their reason, never `connected`; writes the quota refused make
/// the device `refused`, naming them; and another client's record that no device keeping the
/// quota could have written is refused on its way in, so that it blocks no write.
@Suite struct NATSTruthfulStateTests {
  func record(_ value: Any?, at time: Int64 = 1) -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: "d"))
  }

  /// One server and the default 3 replicas: the first exchange (creating the bucket) says the
  /// configuration is unusable, with JetStream's reason and how to fix it; no state before it
  /// says `connected` or `synced`. Launched again with 1 replica, the device sends the write its
  /// journal kept without the program writing again.
  @Test func aBucketOf3ReplicasOnASingleServerIsAnUnusableConfigurationNeverConnected()
    async throws
  {
    let cluster = try await NATSTestCluster.singleServer()
    defer { cluster.remove() }
    try await withTemporaryFolder { folder in
      var configuration = cluster.configuration(container: freshNATSContainer())
      configuration.replicas = 3
      configuration.stateDirectory = folder.url
      let reason =
        "nats: creating the bucket \(NATSKeyLayout(container: configuration.container, account: "default").bucket):"
        + " replicas > 1 not supported in non-clustered mode: a bucket of 3 replicas needs a"
        + " JetStream cluster of at least 3 servers; set nats-replicas"
        + " (OBSERVABLE_DEFAULTS_NATS_REPLICAS) to 1 for a single server"
      var during = ""
      let ended = try await runDeviceToItsEnd(configuration) { store in
        store.set("v", forKey: "k")
        var seen: Set<String> = []
        #expect(
          pollBlocking {
            seen.insert(store.syncStatus.summary)
            return store.syncStatus.connection == .unusable
          })
        #expect(
          !seen.contains { $0.hasPrefix("connected") || $0.hasPrefix("synced") }, "\(seen)")
        #expect(!store.synchronize())
        during = store.syncStatus.summary
        #expect(store.syncStatus.lastError == reason)
        // Nothing tries again (a probe every 5 s, the store's retries): the state stays.
        #expect(!pollBlocking(within: .seconds(7)) { store.syncStatus.connection != .unusable })
      }
      #expect(ended)
      #expect(during == "unusable configuration, 1 pending")
      // `cloud status` with the default replicas (3) says so, and exits 78 (EX_CONFIG).
      let (status, output) = try cloudStatus(
        servers: cluster.urls, user: NATSTestCluster.accountA)
      let lines = output.split(separator: "\n").map(String.init)
      #expect(status == 78)
      #expect(lines.contains("state: unusable configuration"), "\(lines)")
      #expect(
        lines.last?.hasSuffix(
          "replicas > 1 not supported in non-clustered mode: a bucket of 3 replicas needs a"
            + " JetStream cluster of at least 3 servers; set nats-replicas"
            + " (OBSERVABLE_DEFAULTS_NATS_REPLICAS) to 1 for a single server") == true,
        "\(lines)")
      #expect(!output.contains(NATSTestCluster.accountA.password))

      // The configuration fixed: launched again with 1 replica, the journal's write goes out.
      await SyncFaultSoak.hold()
      configuration.replicas = 1
      let store = NSUbiquitousKeyValueStore(
        backend: try NATSCloudBackend(configuration: configuration))
      #expect(await poll { store.syncStatus.summary == "synced" }, "\(store.syncStatus)")
      let reader = try NATSCloudBackend(
        configuration: cluster.configuration(container: configuration.container))
      let arrived = try reader.load().records["k"]?.value as? String == "v"
      SyncFaultMatrix.expectDocumented(
        SyncFaultRow(
          engine: "NATS",
          fault: "a single server, the bucket of 3 replicas (healed: launched again with 1)",
          toldDuring: during, statusExit: status, toldAfter: store.syncStatus.summary,
          writesArrive: arrived))
    }
  }

  @Test func aWriteTheQuotaRefusesMakesTheDeviceRefusedNamingIt() async throws {
    let cluster = try await NATSTestCluster.shared()
    let device = try NATSCloudBackend(
      configuration: cluster.configuration(container: freshNATSContainer()))
    try device.save(["a": record(Data(count: 600_000))])
    #expect(device.syncStatus.summary == "synced")
    #expect(throws: CloudQuotaViolation(keys: ["b"])) {
      try device.save(["b": record(Data(count: 600_000))])
    }
    // A read after the refusal (the store's own, to take the key back) does not hide it.
    _ = try device.load()
    #expect(device.syncStatus.summary == "refused")
    #expect(device.syncStatus.lastError == "the container is full: 1 value was refused (b)")
    try device.save(["b": record("fits", at: 2)])
    #expect(device.syncStatus.summary == "synced")
    #expect(device.syncStatus.lastError == nil)
  }

  @Test func anotherClientsRecordOverTheQuotaIsRefusedAndBlocksNoWriteOfOtherKeys() async throws {
    let cluster = try await NATSTestCluster.shared()
    let configuration = cluster.configuration(container: freshNATSContainer())
    let layout = NATSKeyLayout(container: configuration.container, account: "default")
    let first = NSUbiquitousKeyValueStore(
      backend: try NATSCloudBackend(configuration: configuration))
    let second = NSUbiquitousKeyValueStore(
      backend: try NATSCloudBackend(configuration: configuration))
    first.set("b", forKey: "before")
    #expect(first.synchronize())
    // A valid record of a value over the quota, which the bucket's limits let through.
    let client = try NATSTestClient(url: cluster.urls[1], user: NATSTestCluster.accountA)
    let bucket = try client.bucket(layout.bucket)
    defer { kvStore_Destroy(bucket) }
    try client.put(
      CloudRecordCodec.encode(record(Data(count: 1_200_000))), key: "planted", in: bucket)

    for index in 0..<4 {
      await SyncFaultSoak.hold(upTo: .milliseconds(500))
      first.set("v\(index)", forKey: "k\(index)")
    }
    #expect(first.synchronize())
    let expected = ["before": "b", "k0": "v0", "k1": "v1", "k2": "v2", "k3": "v3"]
    let reader = try NATSCloudBackend(configuration: configuration)
    #expect(
      await poll {
        (try? reader.load().records.compactMapValues { $0.value as? String }.stringKeyed)
          == expected
      })
    #expect(await poll { second.string(forKey: "k3") == "v3" })
    #expect(
      await poll {
        second.refusal(forKey: "planted")
          == "the record is beyond the quota: its key and value take 1200007 bytes, more than"
          + " the quota's 1048576"
      }, "\(second.refusal(forKey: "planted") ?? "none")")
    #expect(second.object(forKey: "planted") == nil)
    #expect(first.syncStatus.summary == "synced")
    #expect(first.synchronize())
    SyncFaultMatrix.expectDocumented(
      SyncFaultRow(
        engine: "NATS", fault: "a record over the quota planted by another client",
        toldDuring: first.syncStatus.summary, statusExit: nil,
        toldAfter: second.syncStatus.summary, writesArrive: second.string(forKey: "k3") == "v3"))
  }
}

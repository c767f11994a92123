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

  @Test func aBucketOf3ReplicasOnASingleServerIsAnUnusableConfigurationNeverConnected()
    async throws
  {
    let cluster = try await NATSTestCluster.singleServer()
    defer { cluster.remove() }
    var configuration = cluster.configuration(container: freshNATSContainer())
    configuration.replicas = 3
    let device = try NATSCloudBackend(configuration: configuration)
    let store = NSUbiquitousKeyValueStore(backend: device)
    store.set("v", forKey: "k")
    #expect(!store.synchronize())
    #expect(store.syncStatus.summary == "unusable configuration, 1 pending")
    let reason = try #require(store.syncStatus.lastError)
    #expect(reason.hasSuffix("replicas > 1 not supported in non-clustered mode"), "\(reason)")
    // Nothing tries again (a probe every 5 s, the store's retries): the state stays.
    #expect(!(await poll(within: .seconds(7)) { store.syncStatus.connection != .unusable }))
    // `cloud status` with the default replicas (3) says so, and exits 78 (EX_CONFIG).
    let (status, output) = try cloudStatus(
      servers: cluster.urls, user: NATSTestCluster.accountA)
    let lines = output.split(separator: "\n").map(String.init)
    #expect(status == 78)
    #expect(lines.contains("state: unusable configuration"), "\(lines)")
    #expect(lines.last?.hasSuffix("replicas > 1 not supported in non-clustered mode") == true)
    #expect(!output.contains(NATSTestCluster.accountA.password))
    SyncFaultMatrix.expectDocumented(
      SyncFaultRow(
        engine: "NATS", fault: "a single server, the bucket of 3 replicas",
        toldDuring: store.syncStatus.summary, statusExit: status, toldAfter: "-",
        writesArrive: false))
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

    for index in 0..<4 { first.set("v\(index)", forKey: "k\(index)") }
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

import Foundation
import ObservableDefaultsCore
import Synchronization
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// Servers of a cluster of its own (the shared one keeps all its servers) killed under devices,
/// and the shared cluster's stream leaders moved under them.
@Suite struct NATSFaultTests {
  @Test func aServerKilledWithSignal9TheDeviceContinuesOnAnotherNothingLostOrTwice()
    async throws
  {
    let cluster = try await NATSTestCluster.started()
    defer { cluster.remove() }
    // A new leader of the bucket's stream takes 4–9 s to elect (nats-server's Raft election
    // timeout) when the killed server led it: the devices wait that long instead of failing.
    var configuration = cluster.configuration(container: freshNATSContainer())
    configuration.requestTimeout = 15
    let writer = try NATSCloudBackend(configuration: configuration)
    let reader = try NATSCloudBackend(configuration: configuration)
    let cursor = try reader.load().cursor
    try writer.save(["k0": record(0)])
    let delivered = Mutex<[String]>([])
    let subscription = reader.subscribe(from: cursor) { event in
      if case .changed(let batch) = event {
        delivered.withLock { $0 += batch.records.keys.map(\.string) }
      }
    }
    #expect(await poll { delivered.withLock { $0 } == ["k0"] })

    // Kill the server the writer is connected to: it goes on through another; the killed
    // server comes back and catches up.
    let killed = try #require(server(of: writer, in: cluster))
    await SyncFaultSoak.hold()
    killed.kill9()
    for index in 1..<10 { try writer.save(["k\(index)": record(index)]) }
    let survivor = try #require(server(of: writer, in: cluster))
    #expect(survivor !== killed)
    let toldDuring = writer.syncStatus.summary
    await SyncFaultSoak.hold(upTo: .seconds(5))
    try killed.start()
    try await cluster.waitUntilReady([killed])
    for index in 10..<20 { try writer.save(["k\(index)": record(index)]) }
    #expect(await poll(within: .seconds(30)) { delivered.withLock { $0 }.count >= 20 })
    #expect(delivered.withLock { $0 }.sorted() == (0..<20).map { "k\($0)" }.sorted())
    let loaded = try NATSCloudBackend(configuration: configuration).load().records
    #expect(loaded.count == 20)
    #expect(writer.syncStatus.connection == .connected)
    subscription.cancel()
    SyncFaultMatrix.expectDocumented(
      SyncFaultRow(
        engine: "NATS", fault: "the server in use killed (kill -9)", toldDuring: toldDuring,
        statusExit: nil, toldAfter: writer.syncStatus.summary, writesArrive: loaded.count == 20))
  }

  @Test func quorumLostThenRegainedDeliversThePendingWrites() async throws {
    let cluster = try await NATSTestCluster.started()
    defer { cluster.remove() }
    // The test cluster's request timeout (5 s): with 1 s every try after the quorum's return could
    // time out on a busy machine before JetStream acknowledged it (a full run failed so, with
    // only `before` stored after 90 s, while the test alone passes in 14 s).
    let configuration = cluster.configuration(container: freshNATSContainer())
    let device = try NATSCloudBackend(configuration: configuration)
    let store = NSUbiquitousKeyValueStore(backend: device)
    store.set("v0", forKey: "before")
    #expect(store.synchronize())
    // The device's server stays: the two others are the quorum lost.
    let kept = try #require(server(of: device, in: cluster))
    let lost = cluster.servers.filter { $0 !== kept }
    await SyncFaultSoak.hold()
    for server in lost { server.kill9() }
    for index in 1...3 { store.set("v\(index)", forKey: "k\(index)") }
    // libnats keeps its socket to the remaining server, which answers every JetStream
    // request with "No responders": the device is offline, not connected.
    #expect(
      await poll(within: .seconds(60)) { device.syncStatus.connection == .offline },
      "\(device.syncStatus)")
    let during = store.syncStatus.summary
    #expect(during == "offline, 3 pending")
    #expect(device.syncStatus.lastError != nil)
    #expect(store.string(forKey: "k3") == "v3")
    await SyncFaultSoak.hold(upTo: .seconds(5))
    for server in lost { try server.start() }
    try await cluster.waitUntilReady(lost)
    // No write and no synchronize() after the quorum is back: the pending writes go by themselves
    // (a try at most every 10 s; the bucket's new leader may take 4–9 s to elect, more when the
    // machine is loaded).
    let reader = try NATSCloudBackend(configuration: configuration)
    #expect(
      await poll(within: .seconds(90)) {
        ((try? reader.load().records) ?? [:]).count == 4
      }, "the device's last error: \(device.syncStatus.lastError ?? "none")")
    let stored = try reader.load().records
    #expect(
      stored.mapValues { $0.value as? String } == [
        "before": "v0", "k1": "v1", "k2": "v2", "k3": "v3",
      ])
    // The records can be read before the device's save returns and clears its last error.
    #expect(await poll(within: .seconds(30)) { device.syncStatus.lastError == nil })
    #expect(await poll { store.syncStatus.summary == "synced" })
    SyncFaultMatrix.expectDocumented(
      SyncFaultRow(
        engine: "NATS", fault: "quorum lost (2 of 3 servers killed) and regained",
        toldDuring: during, statusExit: nil, toldAfter: store.syncStatus.summary,
        writesArrive: stored.count == 4))
  }

  @Test func theStreamsLeaderMovingTwiceLosesNoWriteAndDeliversNoneTwice() async throws {
    let cluster = try await NATSTestCluster.shared()
    let configuration = cluster.configuration(container: freshNATSContainer())
    let writer = try NATSCloudBackend(configuration: configuration)
    let reader = try NATSCloudBackend(configuration: configuration)
    let cursor = try reader.load().cursor
    let delivered = Mutex<[String]>([])
    let subscription = reader.subscribe(from: cursor) { event in
      if case .changed(let batch) = event {
        delivered.withLock { $0 += batch.records.keys.map(\.string) }
      }
    }
    defer { subscription.cancel() }
    let stream = NATSKeyLayout(container: configuration.container, account: "default").stream
    let monitor = try NATSTestClient(url: cluster.urls[0], user: NATSTestCluster.accountA)
    func leader() throws -> String? {
      let info = try monitor.request("$JS.API.STREAM.INFO.\(stream)")
      return (info.body["cluster"] as? [String: Any])?["leader"] as? String
    }
    var leaders = [try #require(try leader())]
    for index in 0..<30 {
      try writer.save(["k\(index)": record(index)])
      guard index == 9 || index == 19 else { continue }
      let reply = try monitor.request("$JS.API.STREAM.LEADER.STEPDOWN.\(stream)")
      #expect(reply.error == nil)
      // The stream elects another leader (none leads meanwhile); the devices' next requests
      // wait for it.
      var elected: String?
      #expect(
        pollBlocking(within: .seconds(20)) {
          elected = (try? leader()) ?? nil
          return elected != nil && elected != leaders.last
        })
      leaders.append(try #require(elected))
    }
    #expect(leaders.count == 3)
    #expect(await poll(within: .seconds(30)) { delivered.withLock { $0 }.count >= 30 })
    #expect(delivered.withLock { $0 }.sorted() == (0..<30).map { "k\($0)" }.sorted())
    #expect(try reader.load().records.count == 30)
  }

  private func record(_ value: Int) -> CloudRecord {
    CloudRecord(
      value: value, timestamp: CloudTimestamp(time: Int64(value + 1), counter: 0, device: "w"))
  }

  /// The server `backend` is connected to now.
  private func server(of backend: NATSCloudBackend, in cluster: NATSTestCluster)
    -> LoopbackServer?
  {
    guard let endpoint = backend.syncStatus.endpoint,
      let index = cluster.urls.firstIndex(of: endpoint)
    else { return nil }
    return cluster.servers[index]
  }
}

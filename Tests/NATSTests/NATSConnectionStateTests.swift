import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// Issue 25: the connection state is true while the device writes nothing — a device whose
/// servers all stop answering (stopped processes keep their sockets open) is `offline` once
/// libnats' pings go unanswered (every 2 s, at most 2 outstanding), and `connected` again once a
/// server answers.
@Suite struct NATSConnectionStateTests {
  @Test func aDeviceThatWritesNothingSeesItsStoppedServersGoOfflineAndComeBack() async throws {
    let cluster = try await NATSTestCluster.started()
    defer { cluster.remove() }
    let (device, store) = try syncedDevice(on: cluster)
    #expect(store.syncStatus.summary == "synced")

    await SyncFaultSoak.hold()
    for server in cluster.servers { server.pause() }
    defer { for server in cluster.servers { server.pause(false) } }
    #expect(await poll(within: .seconds(30)) { store.syncStatus.connection == .offline })
    store.set("written while frozen", forKey: "during")
    let toldDuring = store.syncStatus.summary
    #expect(toldDuring == "offline, 1 pending")

    await SyncFaultSoak.hold(upTo: .seconds(5))
    for server in cluster.servers { server.pause(false) }
    try await expectHealed(
      store, of: device, holding: "written while frozen",
      fault: "every server frozen (SIGSTOP)", toldDuring: toldDuring)
    #expect(store.string(forKey: "k") == "v")
  }

  /// A device cut off from its server by the network (the server in a network namespace whose
  /// link goes down: packets are lost, nothing is refused) is `offline` with its write pending,
  /// and once the link is back it is `connected` and the write reaches the server without the
  /// program writing again.
  @Test(.enabled(if: NetworkNamespace.isAvailable, "network namespaces need root"))
  func aDevicePartitionedFromItsServerIsOfflineAndSyncsOnceTheNetworkHeals() async throws {
    let namespace = try NetworkNamespace()
    defer { namespace.remove() }
    var options = NATSTestCluster.Options()
    (options.size, options.accountStorage, options.serverStorage) = (1, "64MB", "256MB")
    (options.namespace, options.host) = (namespace, namespace.serverAddress)
    let cluster = try await NATSTestCluster.started(options)
    defer { cluster.remove() }
    let (device, store) = try syncedDevice(on: cluster)

    await SyncFaultSoak.hold()
    try namespace.partition(true)
    defer { try? namespace.partition(false) }
    store.set("written while partitioned", forKey: "during")
    #expect(await poll(within: .seconds(30)) { store.syncStatus.connection == .offline })
    let toldDuring = store.syncStatus.summary
    #expect(toldDuring == "offline, 1 pending")

    await SyncFaultSoak.hold(upTo: .seconds(5))
    try namespace.partition(false)
    try await expectHealed(
      store, of: device, holding: "written while partitioned",
      fault: "the device partitioned from its server (network namespace)",
      toldDuring: toldDuring)
  }

  /// A device of a new container on `cluster`, with `k` = `v` written and synchronized.
  private func syncedDevice(on cluster: NATSTestCluster) throws -> (
    NATSCloudBackend, NSUbiquitousKeyValueStore
  ) {
    let device = try NATSCloudBackend(
      configuration: cluster.configuration(container: freshNATSContainer()))
    let store = NSUbiquitousKeyValueStore(backend: device)
    store.set("v", forKey: "k")
    #expect(store.synchronize())
    return (device, store)
  }

  /// Once a fault healed: `store` (of `device`) becomes `connected`, and the value written
  /// under `during` while the fault lasted reaches another device without the program writing
  /// again (the store's retries, at most 10 s apart, send it); the fault's row of the matrix.
  private func expectHealed(
    _ store: NSUbiquitousKeyValueStore, of device: NATSCloudBackend, holding value: String,
    fault: String, toldDuring: String
  ) async throws {
    #expect(await poll(within: .seconds(60)) { store.syncStatus.summary == "synced" })
    let reader = try NATSCloudBackend(configuration: device.configuration)
    let arrived = await poll(within: .seconds(30)) {
      (try? reader.load().records["during"]?.value as? String) == value
    }
    #expect(arrived)
    SyncFaultMatrix.expectDocumented(
      SyncFaultRow(
        engine: "NATS", fault: fault, toldDuring: toldDuring, statusExit: nil,
        toldAfter: store.syncStatus.summary, writesArrive: arrived))
  }

  /// A device whose server refuses its NKey — when it starts (`atLaunch`), or once a device
  /// created while no server listens connects in the background (libnats closes the
  /// connection then) — says `refused` with the server's reason (not `connecting` forever, and
  /// it is made all the same: a program never falls back silently to another container) and
  /// keeps making new connections; once the operator adds its user it connects and pushes the
  /// write made meanwhile, without a restart.
  @Test(arguments: [false, true])
  func credentialsRefusedAreRefusedUntilTheServerAcceptsThem(atLaunch: Bool) async throws {
    try await withTemporaryFolder { folder in
      let pair = try NKeyPair(seedFile: folder.file("device.nk"))
      var options = NATSTestCluster.Options()
      (options.size, options.accountStorage, options.serverStorage) = (1, "8MB", "32MB")
      let ports = try LoopbackServer.freePorts(2)
      options.ports = ports
      var configuration = NATSConfiguration(
        servers: ["nats://127.0.0.1:\(ports[0])"], container: freshNATSContainer(),
        credentials: try .nkey(pair.publicKey, seedFile: pair.seedFile.path), replicas: 1,
        requestTimeout: 1)
      var refusing = atLaunch ? try await NATSTestCluster.started(options) : nil
      defer { refusing?.remove() }
      let device = try NATSCloudBackend(configuration: configuration)
      let store = NSUbiquitousKeyValueStore(backend: device)
      store.set("written while refused", forKey: "k")

      if refusing == nil { refusing = try await NATSTestCluster.started(options) }
      #expect(await poll(within: .seconds(30)) { store.syncStatus.summary == "refused, 1 pending" })
      let toldDuring = store.syncStatus.summary
      #expect(
        device.syncStatus.lastError
          == "nats: connecting to nats://127.0.0.1:\(ports[0]): Authorization Violation")
      let seed = try String(contentsOf: pair.seedFile, encoding: .utf8)
      #expect(!"\(device.syncStatus) \(device.syncStatus.lastError ?? "")".contains(seed))

      await SyncFaultSoak.hold(upTo: .seconds(5))
      refusing?.remove()
      options.nkeyUsersOfA = [pair.publicKey]
      let accepting = try await NATSTestCluster.started(options)
      defer { accepting.remove() }
      #expect(await poll(within: .seconds(60)) { store.syncStatus.summary == "synced" })
      configuration.credentials = NATSTestCluster.accountA.credentials
      let reader = try NATSCloudBackend(configuration: configuration)
      let arrived = await poll(within: .seconds(30)) {
        (try? reader.load().records["k"]?.value as? String) == "written while refused"
      }
      #expect(arrived)
      SyncFaultMatrix.expectDocumented(
        SyncFaultRow(
          engine: "NATS",
          fault: atLaunch ? "credentials refused at launch" : "credentials refused later",
          toldDuring: toldDuring, statusExit: nil, toldAfter: store.syncStatus.summary,
          writesArrive: arrived))
    }
  }
}

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
    let cluster = try NATSTestCluster()
    defer { cluster.remove() }
    let device = try NATSCloudBackend(
      configuration: cluster.configuration(container: freshNATSContainer()))
    let store = NSUbiquitousKeyValueStore(backend: device)
    store.set("v", forKey: "k")
    #expect(store.synchronize())
    #expect(store.syncStatus.summary == "connected")

    for server in cluster.servers { server.pause() }
    defer { for server in cluster.servers { server.pause(false) } }
    #expect(await poll(within: .seconds(30)) { store.syncStatus.connection == .offline })

    for server in cluster.servers { server.pause(false) }
    #expect(await poll(within: .seconds(30)) { store.syncStatus.summary == "connected" })
    #expect(store.string(forKey: "k") == "v")
  }

  /// A device created while no server listens connects in the background; when the server
  /// that then starts refuses its password, libnats closes the connection without a reason, and
  /// the device says so (not `connecting` forever). Refused at creation, the device is not
  /// made: `NATSConfigurationTests.aWrongPasswordIsRefusedWithoutShowingIt`.
  @Test func credentialsRefusedInTheBackgroundEndConnectingWithTheReason() async throws {
    let ports = try LoopbackServer.freePorts(2)
    var configuration = NATSConfiguration(
      servers: ["nats://127.0.0.1:\(ports[0])"], container: freshNATSContainer(),
      credentials: .user(NATSTestCluster.accountA.name, password: "not-the-password"),
      replicas: 1, requestTimeout: 1)
    let device = try NATSCloudBackend(configuration: configuration)
    #expect(device.syncStatus.lastError == nil, "not given up yet")
    let cluster = try NATSTestCluster(
      .init(size: 1, accountStorage: "8MB", serverStorage: "32MB", ports: ports))
    defer { cluster.remove() }
    #expect(
      await poll(within: .seconds(30)) {
        device.syncStatus.lastError?.hasPrefix("nats: libnats gave up connecting") == true
      })
    #expect(device.syncStatus.summary == "offline")
    #expect(!"\(device.syncStatus)".contains("not-the-password"))
    configuration.credentials = NATSTestCluster.accountA.credentials
    #expect(try NATSCloudBackend(configuration: configuration).load().records.isEmpty)
  }
}

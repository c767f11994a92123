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

  /// A device created while its server does not answer connects in the background; when the
  /// server then refuses its password, it says `refused` (not `connecting` forever).
  @Test func refusedCredentialsInTheBackgroundMakeTheDeviceRefused() async throws {
    let cluster = try NATSTestCluster(
      .init(size: 1, accountStorage: "8MB", serverStorage: "32MB"))
    defer { cluster.remove() }
    var configuration = cluster.configuration(container: freshNATSContainer())
    configuration.credentials = .user(NATSTestCluster.accountA.name, password: "not-the-password")
    configuration.requestTimeout = 1
    cluster.servers[0].pause()
    let device = try NATSCloudBackend(configuration: configuration)
    cluster.servers[0].pause(false)
    #expect(await poll(within: .seconds(30)) { device.syncStatus.connection == .refused })
    #expect(device.syncStatus.summary == "refused")
    #expect(
      device.syncStatus.lastError
        == "nats: the servers refused this device's credentials; check its user, password, NKey or .creds file"
    )
    #expect(!"\(device.syncStatus)".contains("not-the-password"))
  }
}

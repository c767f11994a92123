import Foundation
import ObservableDefaultsCore
import ObservableDefaultsNATS
import Synchronization
import TestSupport
import Testing

/// Two 3-server clusters, `east` and `west`, joined by gateways into one supercluster (one
/// JetStream domain): a device on each cluster, one container, syncing both ways.
@Suite struct NATSGatewayTests {
  @Test func aDeviceOnEachOfTwoClustersJoinedByAGatewaySyncsBothWays() async throws {
    let (east, west) = try await Self.startSupercluster()
    defer {
      east.remove()
      west.remove()
    }
    let container = freshNATSContainer()
    let eastDevice = try NATSCloudBackend(configuration: east.configuration(container: container))
    let westDevice = try NATSCloudBackend(configuration: west.configuration(container: container))
    let seen = (east: Seen(), west: Seen())
    func watch(_ device: NATSCloudBackend, into seen: Seen) throws -> ObservationToken {
      device.subscribe(from: try device.load().cursor) { event in
        guard case .changed(let batch) = event else { return }
        seen.values.withLock {
          $0.merge(batch.records.compactMapValues { $0.value as? String }.stringKeyed) { $1 }
        }
      }
    }
    let watches = [try watch(eastDevice, into: seen.east), try watch(westDevice, into: seen.west)]
    defer { for watch in watches { watch.cancel() } }

    try eastDevice.save(["from-east": record("e", by: "east")])
    #expect(
      await poll(within: .seconds(30)) { seen.west.values.withLock { $0 } == ["from-east": "e"] })
    try westDevice.save(["from-west": record("w", by: "west")])
    #expect(
      await poll(within: .seconds(30)) {
        seen.east.values.withLock { $0 } == ["from-east": "e", "from-west": "w"]
      })
    #expect(eastDevice.syncStatus.endpoint.map(east.urls.contains) == true)
    #expect(westDevice.syncStatus.endpoint.map(west.urls.contains) == true)
  }

  /// Starts `east` and `west` on ports found free, and both again on other ports (up to 3
  /// times) when a server finds its port taken by then: the clusters name each other's ports,
  /// so neither can start again alone (a CI run with every core busy failed so).
  private static func startSupercluster() async throws -> (NATSTestCluster, NATSTestCluster) {
    for attempt in 1...3 {
      // Gateway, client and route ports of both clusters, all distinct.
      let ports = try LoopbackServer.freePorts(18)
      let clusters = ["east": Array(ports[0..<3]), "west": Array(ports[3..<6])]
      let serverPorts = ["east": Array(ports[6..<12]), "west": Array(ports[12..<18])]
      func options(_ name: String) -> NATSTestCluster.Options {
        var options = NATSTestCluster.Options()
        options.name = name
        options.gateway = (clusters[name]!, clusters)
        options.ports = serverPorts[name]
        return options
      }
      // JetStream's meta group spans both clusters: neither is ready before the other started.
      func starting(_ name: String) async -> Result<NATSTestCluster, any Error> {
        do {
          return .success(try await NATSTestCluster.started(options(name)))
        } catch {
          return .failure(error)
        }
      }
      async let startingEast = starting("east")
      async let startingWest = starting("west")
      let started = await [startingEast, startingWest]
      if case .success(let east) = started[0], case .success(let west) = started[1] {
        return (east, west)
      }
      for case .success(let cluster) in started { cluster.remove() }
      let failures = started.compactMap { result -> (any Error)? in
        guard case .failure(let error) = result else { return nil }
        return error
      }
      guard attempt < 3, failures.contains(where: { $0 is NATSTestCluster.PortTaken }) else {
        throw failures[0]
      }
    }
    preconditionFailure("the third attempt returns or throws")
  }

  /// The string values a device's watch delivered, by key.
  final class Seen: Sendable {
    let values = Mutex<[String: String]>([:])
  }

  private func record(_ value: String, by device: String) -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: 1, counter: 0, device: device))
  }
}

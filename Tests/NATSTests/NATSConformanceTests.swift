import ObservableDefaultsCore
import ObservableDefaultsNATS
import ObservableDefaultsTesting
import TestSupport
import Testing

/// The contract of `CloudBackend` (``CloudBackendConformance``) on the 3-server JetStream test
/// cluster (R3), a fresh container (so fresh buckets) for each check.
@Suite struct NATSConformanceTests {
  /// Devices of one fresh container.
  struct Container: CloudTestContainer {
    let cluster: NATSTestCluster
    let name = freshNATSContainer()
    func device(account: String) throws -> any CloudBackend {
      try NATSCloudBackend(
        configuration: cluster.configuration(container: name, account: account))
    }
  }

  @Test(arguments: CloudBackendConformance.Check.allCases)
  func nats(_ check: CloudBackendConformance.Check) async throws {
    let cluster = try await NATSTestCluster.shared()
    try await CloudBackendConformance { run in try await run(Container(cluster: cluster)) }.run(
      check)
  }
}

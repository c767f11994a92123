import ObservableDefaultsCore
import ObservableDefaultsEtcd
import ObservableDefaultsTesting
import TestSupport
import Testing

/// The contract of `CloudBackend` (``CloudBackendConformance``) on the 3-member test cluster, a
/// fresh key root for each check.
@Suite struct EtcdConformanceTests {
  /// Devices of one container under a fresh key root (journals in memory).
  struct Container: CloudTestContainer {
    let cluster: EtcdTestCluster
    let root = freshEtcdRoot()
    func device(account: String) throws -> any CloudBackend {
      try EtcdCloudBackend(
        configuration: EtcdConfiguration(
          endpoints: cluster.endpoints, root: root, container: "tests", account: account))
    }
  }

  @Test(arguments: CloudBackendConformance.Check.allCases)
  func etcd(_ check: CloudBackendConformance.Check) async throws {
    let cluster = try await EtcdTestCluster.shared()
    try await CloudBackendConformance { run in try await run(Container(cluster: cluster)) }.run(
      check)
  }
}

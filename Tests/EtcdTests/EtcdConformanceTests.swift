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
    let root = freshEtcdRoot()
    func device(account: String) throws -> any CloudBackend {
      let cluster = try EtcdTestCluster.shared.get()
      return try EtcdCloudBackend(
        configuration: EtcdConfiguration(
          endpoints: cluster.endpoints, root: root, container: "tests", account: account))
    }
  }

  @Test(arguments: CloudBackendConformance.Check.allCases)
  func etcd(_ check: CloudBackendConformance.Check) async throws {
    try await CloudBackendConformance { run in try await run(Container()) }.run(check)
  }
}

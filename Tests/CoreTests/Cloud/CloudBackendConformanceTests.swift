import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

/// The contract of `CloudBackend` (``CloudBackendConformance``) for the backends of this module;
/// `EtcdTests` and `NATSTests` run it for theirs.
@Suite struct CloudBackendConformanceTests {
  /// Devices of one in-memory container: the first device, and others connected through it.
  struct InMemoryContainer: CloudTestContainer {
    let first = InMemoryCloudBackend()
    func device(account: String) throws -> any CloudBackend {
      first.anotherDevice(account: account)
    }
  }

  /// Devices of one embedded container in a temporary folder.
  struct EmbeddedContainer: CloudTestContainer {
    let folder: TemporaryFolder
    func device(account: String) throws -> any CloudBackend {
      EmbeddedCloudBackend(root: folder.url, container: "tests", account: account)
    }
  }

  @Test(arguments: CloudBackendConformance.Check.allCases)
  func inMemory(_ check: CloudBackendConformance.Check) async throws {
    try await CloudBackendConformance { run in try await run(InMemoryContainer()) }.run(check)
  }

  @Test(arguments: CloudBackendConformance.Check.allCases)
  func embedded(_ check: CloudBackendConformance.Check) async throws {
    try await CloudBackendConformance { run in
      try await withTemporaryFolder { folder in try await run(EmbeddedContainer(folder: folder)) }
    }.run(check)
  }
}

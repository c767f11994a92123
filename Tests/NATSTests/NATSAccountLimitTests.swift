import Foundation
import ObservableDefaultsCore
import Testing

@testable import ObservableDefaultsNATS

/// Filling across accounts: each NATS account's JetStream storage (`max_file`) bounds what its
/// devices reserve, so one tenant that makes buckets until its account is full leaves another
/// tenant's room whole. On one server whose store holds both accounts' limits (nats-server
/// refuses to start JetStream otherwise).
@Suite struct NATSAccountLimitTests {
  @Test func anAccountMakingBucketsUntilItIsFullLeavesTheOtherAccountsRoom() async throws {
    // 8 MiB per account: 3 buckets of 2.5 MiB each.
    let server = try await NATSTestCluster.started(
      .init(size: 1, accountStorage: "8MB", serverStorage: "32MB"))
    func device(_ user: NATSTestCluster.User, _ container: String) throws -> NATSCloudBackend {
      try NATSCloudBackend(configuration: server.configuration(container: container, user: user))
    }
    for index in 0..<3 { _ = try device(NATSTestCluster.accountA, "a\(index)").load() }
    let full = NATSKeyLayout(container: "a3", account: "default").bucket
    #expect(
      throws: NATSError(
        kind: .refused(code: 10047),
        message: "creating the bucket \(full): insufficient storage resources available")
    ) {
      _ = try device(NATSTestCluster.accountA, "a3").load()
    }
    let bob = try device(NATSTestCluster.accountB, "a3")
    let value = String(repeating: "b", count: 1_000_000)
    try bob.save([
      "room": CloudRecord(value: value, timestamp: CloudTimestamp(time: 1, counter: 0, device: "b"))
    ])
    #expect(try bob.load().records["room"]?.value as? String == value)
  }
}

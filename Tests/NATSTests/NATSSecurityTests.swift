import CNATS
import Foundation
import ObservableDefaultsCore
import Synchronization
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// Account A's credentials against account B's data, through the library and through raw libnats
/// requests: NATS accounts are separate subject spaces, so A finds no bucket of B's, and what A
/// publishes to B's subjects stays in A. Serialized: a test listening on all of A's subjects
/// would answer the requests another test expects nobody to answer.
@Suite(.serialized) struct NATSSecurityTests {
  let cluster: NATSTestCluster
  let container = freshNATSContainer()
  /// B's bucket, which A has no bucket of the same name for.
  let layout: NATSKeyLayout

  init() async throws {
    cluster = try await NATSTestCluster.shared()
    layout = NATSKeyLayout(container: container, account: "default")
  }

  /// A device of `user`'s NATS account on the test container.
  func device(_ user: NATSTestCluster.User) throws -> NATSCloudBackend {
    try NATSCloudBackend(configuration: cluster.configuration(container: container, user: user))
  }

  func record(_ value: String, at time: Int64) -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: "d"))
  }

  @Test func devicesOfTwoAccountsWithTheSameContainerAndAccountNameShareNothing() async throws {
    let alice = try device(NATSTestCluster.accountA)
    let bob = try device(NATSTestCluster.accountB)
    try bob.save(["owner": record("bob", at: 1)])
    try alice.save(["owner": record("alice", at: 2), "extra": record("a", at: 2)])
    #expect(try bob.load().records.mapValues { $0.value as? String } == ["owner": "bob"])
    #expect(
      try alice.load().records.mapValues { $0.value as? String } == [
        "owner": "alice", "extra": "a",
      ])
  }

  @Test func aDeviceOfAWithBsContainerAndAccountNamesIsToldNothingOfBsSaves() async throws {
    let alice = try device(NATSTestCluster.accountA)
    let seen = Mutex<[String]>([])
    let subscription = alice.subscribe(from: try alice.load().cursor) { event in
      if case .changed(let batch) = event {
        seen.withLock { $0 += batch.records.keys.sorted().map(\.string) }
      }
    }
    try device(NATSTestCluster.accountB).save(["secret": record("b's", at: 1)])
    try alice.save(["mine": record("a's", at: 2)])
    // A's watch delivers in order: a save of B's in A's bucket would have come first.
    #expect(await poll { seen.withLock { $0 } == ["mine"] })
    subscription.cancel()
  }

  @Test func accountACannotOpenReadOrWatchAccountBsBucket() throws {
    try device(NATSTestCluster.accountB).save(["secret": record("b's", at: 1)])
    let attacker = try NATSTestClient(url: cluster.urls[0], user: NATSTestCluster.accountA)
    #expect(throws: NATSTestClient.Failure(status: NATS_NOT_FOUND, code: 0, text: "")) {
      _ = try attacker.bucket(layout.bucket)
    }
    #expect(
      throws: NATSTestClient.Failure(status: NATS_ERR, code: 10059, text: "stream not found")
    ) {
      try attacker.watch(stream: layout.stream, subject: layout.allSubjects)
    }
    #expect(
      throws: NATSTestClient.Failure(status: NATS_ERR, code: 10059, text: "stream not found")
    ) {
      try attacker.lastMessage(stream: layout.stream, subject: layout.subject("secret"))
    }
    // The library, with A's credentials, opens a bucket of that name in A: empty, not B's.
    #expect(try device(NATSTestCluster.accountA).load().records.isEmpty)
  }

  @Test func accountAListeningOnBsSubjectsAndOnEverythingHearsNothingOfB() async throws {
    let attacker = try NATSTestClient(url: cluster.urls[2], user: NATSTestCluster.accountA)
    let listeners = try [layout.allSubjects, "$KV.>", "$JS.>", ">"].map(attacker.subscribe)
    defer { for listener in listeners { natsSubscription_Destroy(listener) } }
    let bob = try device(NATSTestCluster.accountB)
    let seen = Mutex<[String]>([])
    let subscription = bob.subscribe(from: try bob.load().cursor) { event in
      if case .changed(let batch) = event {
        seen.withLock { $0 += batch.records.keys.map(\.string) }
      }
    }
    try bob.save(["secret": record("b's", at: 1)])
    // B's own watch got the change, so the servers routed it: none of it reached A.
    #expect(await poll { seen.withLock { $0 } == ["secret"] })
    let heard = try listeners.map { try attacker.received($0, containing: layout.bucket) }
    #expect(heard == [0, 0, 0, 0])
    // The same listeners hear A's own writes to a bucket of that name: its marker and the record.
    try device(NATSTestCluster.accountA).save(["mine": record("a's", at: 1)])
    let own = try listeners.prefix(2).map { try attacker.received($0, containing: layout.bucket) }
    #expect(own == [2, 2])
    subscription.cancel()
  }

  @Test func accountAsPublishToBsSubjectsLandsInAOnly() async throws {
    let bob = try device(NATSTestCluster.accountB)
    try bob.save(["secret": record("b's", at: 1)])
    let attacker = try NATSTestClient(url: cluster.urls[1], user: NATSTestCluster.accountA)
    let forged = try CloudRecordCodec.encode(record("forged by A", at: 99))
    #expect(
      throws: NATSTestClient.Failure(status: NATS_NO_RESPONDERS, code: 10076, text: "")
    ) {
      try attacker.publish(forged, to: layout.subject("secret"))
    }
    // Once A has a bucket of that name, the same publish is stored there, in A.
    let alice = try device(NATSTestCluster.accountA)
    #expect(try alice.load().records.isEmpty)
    try attacker.publish(forged, to: layout.subject("secret"))
    #expect(try alice.load().records["secret"]?.value as? String == "forged by A")
    #expect(try bob.load().records.mapValues { $0.value as? String } == ["secret": "b's"])
  }
}

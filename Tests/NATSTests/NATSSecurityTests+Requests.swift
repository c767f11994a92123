import CNATS
import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// Raw JetStream API requests with account A's credentials on account B's bucket: deleting,
/// purging, direct gets, streams and consumers on B's subjects, account information, filling.
/// Each is answered from A's own account, which holds no stream of B's. Part of the serialized
/// ``NATSSecurityTests``: only this suite uses account B, so B's usage is exactly what it made.
extension NATSSecurityTests {
  /// JetStream's answer about a stream the asking account does not have.
  static let streamNotFound = "10059 stream not found"

  /// B's device, with the key `secret` saved.
  func victim() throws -> NATSCloudBackend {
    let bob = try device(NATSTestCluster.accountB)
    try bob.save(["secret": record("b's", at: 1)])
    return bob
  }

  /// B's stream as B sees it: its messages, bytes, sequences, subjects and limits.
  func victimStream() throws -> String {
    let owner = try NATSTestClient(url: cluster.urls[0], user: NATSTestCluster.accountB)
    let body = try owner.request("$JS.API.STREAM.INFO.\(layout.stream)").body
    let state = body["state"] as? [String: Any] ?? [:]
    let config = body["config"] as? [String: Any] ?? [:]
    return ["messages", "bytes", "first_seq", "last_seq", "num_subjects"]
      .map { "\($0)=\(state[$0] ?? "none")" }.joined(separator: " ")
      + " subjects=\(config["subjects"] ?? "none") max_msgs=\(config["max_msgs"] ?? "none")"
  }

  /// B's records, read by B.
  func values(of device: NATSCloudBackend) throws -> [String: String] {
    try device.load().records.compactMapValues { $0.value as? String }.stringKeyed
  }

  @Test func accountACannotDeleteOrPurgeBsKeys() throws {
    let bob = try victim()
    let before = try victimStream()
    #expect(before.hasPrefix("messages=2 "))
    let attacker = try NATSTestClient(url: cluster.urls[1], user: NATSTestCluster.accountA)
    let secret = layout.subject("secret")
    let requests = [
      ("$JS.API.STREAM.PURGE.\(layout.stream)", #"{"filter":"\#(secret)"}"#),
      ("$JS.API.STREAM.PURGE.\(layout.stream)", ""),
      ("$JS.API.STREAM.MSG.DELETE.\(layout.stream)", #"{"seq":2}"#),
      ("$JS.API.STREAM.DELETE.\(layout.stream)", ""),
    ]
    let answers = try requests.map { try attacker.request($0.0, $0.1).error }
    #expect(answers == Array(repeating: Self.streamNotFound, count: 4))
    // A key-value delete or purge is a message to the key's subject: no stream of A's takes it.
    for operation in [["KV-Operation": "DEL"], ["KV-Operation": "PURGE", "Nats-Rollup": "sub"]] {
      #expect(
        throws: NATSTestClient.Failure(status: NATS_NO_RESPONDERS, code: 10076, text: "")
      ) {
        try attacker.publish(Data(), to: secret, header: operation)
      }
    }
    #expect(try victimStream() == before)
    #expect(try values(of: bob) == ["secret": "b's"])
  }

  @Test func streamsAndConsumersAccountAMakesOnBsSubjectsAreAsOnly() throws {
    let bob = try victim()
    let before = try victimStream()
    let attacker = try NATSTestClient(url: cluster.urls[2], user: NATSTestCluster.accountA)
    let consumer =
      #"{"stream_name":"\#(layout.stream)","config":{"durable_name":"spy","#
      + #""ack_policy":"explicit","filter_subject":"\#(layout.allSubjects)"}}"#
    let createConsumer = "$JS.API.CONSUMER.DURABLE.CREATE.\(layout.stream).spy"
    #expect(try attacker.request(createConsumer, consumer).error == Self.streamNotFound)
    // A stream of the same name and subjects is made in A: empty, and B's is untouched.
    let stream =
      #"{"name":"\#(layout.stream)","subjects":["\#(layout.allSubjects)"],"#
      + #""num_replicas":1,"storage":"memory"}"#
    let created = try attacker.request("$JS.API.STREAM.CREATE.\(layout.stream)", stream)
    #expect(created.error == nil)
    #expect((created.body["state"] as? [String: Any])?["messages"] as? Int == 0)
    let spy = try attacker.request(createConsumer, consumer)
    #expect(spy.error == nil)
    #expect(spy.body["num_pending"] as? Int == 0)
    let owner = try NATSTestClient(url: cluster.urls[0], user: NATSTestCluster.accountB)
    #expect(
      try owner.request("$JS.API.CONSUMER.INFO.\(layout.stream).spy").error
        == "10014 consumer not found")
    // A deletes its stream: B's stays.
    #expect(try attacker.request("$JS.API.STREAM.DELETE.\(layout.stream)").error == nil)
    #expect(try victimStream() == before)
    #expect(try values(of: bob) == ["secret": "b's"])
  }

  @Test func aDirectGetOfBsKeyByAccountAGetsNothingOfBs() throws {
    _ = try victim()
    let attacker = try NATSTestClient(url: cluster.urls[0], user: NATSTestCluster.accountA)
    let secret = layout.subject("secret")
    // JetStream's API service (imported into every account) answers no direct get of a stream
    // the account does not have: the request times out.
    let direct = [
      ("$JS.API.DIRECT.GET.\(layout.stream)", #"{"last_by_subj":"\#(secret)"}"#),
      ("$JS.API.DIRECT.GET.\(layout.stream).\(secret)", ""),
    ]
    for (subject, body) in direct {
      #expect(throws: NATSTestClient.Failure(status: NATS_TIMEOUT, code: 0, text: "")) {
        try attacker.request(subject, body, timeout: 500)
      }
    }
    let get = try attacker.request(
      "$JS.API.STREAM.MSG.GET.\(layout.stream)", #"{"last_by_subj":"\#(secret)"}"#)
    #expect(get.error == Self.streamNotFound)
    // Once A has a bucket of that name, the direct get answers from it: no such message.
    _ = try device(NATSTestCluster.accountA).load()
    let own = try attacker.request("$JS.API.DIRECT.GET.\(layout.stream).\(secret)")
    #expect(own.status == "404")
    #expect(own.body.isEmpty)
  }

  /// The account's JetStream usage (`$JS.API.INFO`): its streams and stored bytes.
  func usage(_ client: NATSTestClient) throws -> [Int] {
    let info = try client.request("$JS.API.INFO").body
    return [info["streams"] as? Int ?? -1, info["storage"] as? Int ?? -1]
  }

  /// The account's streams and the sum of their messages' bytes, from the streams themselves.
  func streamsAndBytes(_ client: NATSTestClient) throws -> [Int] {
    let streams = try client.request("$JS.API.STREAM.LIST").body["streams"] as? [Any] ?? []
    let bytes = streams.compactMap { stream in
      ((stream as? [String: Any])?["state"] as? [String: Any])?["bytes"] as? Int
    }
    return [streams.count, bytes.reduce(0, +)]
  }

  @Test func accountInformationCountsOnlyTheAccountsOwnStreamsAndBytes() async throws {
    _ = try victim()
    let attacker = try NATSTestClient(url: cluster.urls[1], user: NATSTestCluster.accountA)
    let named = try attacker.request(
      "$JS.API.STREAM.NAMES", #"{"subject":"\#(layout.allSubjects)"}"#)
    #expect(named.error == nil)
    #expect(named.body["total"] as? Int == 0)
    // B's usage (only this suite writes to B) counts exactly B's own streams, and A's
    // 500,000 bytes do not appear in it.
    let owner = try NATSTestClient(url: cluster.urls[1], user: NATSTestCluster.accountB)
    // The servers count an account's usage a moment after a write (every 1.5 s or so): B's
    // counts at least its streams' bytes once its last save is counted (the servers add a few
    // bytes of their own).
    #expect(
      try await poll {
        let (counted, stored) = (try usage(owner), try streamsAndBytes(owner))
        return counted[0] == stored[0] && counted[1] >= stored[1]
      })
    let before = try usage(owner)
    let attackerBefore = try usage(attacker)[1]
    try device(NATSTestCluster.accountA).save([
      "big": record(String(repeating: "a", count: 500_000), at: 1)
    ])
    // A's usage counts its save, so the servers have counted it.
    #expect(try await poll { try usage(attacker)[1] >= attackerBefore + 500_000 })
    // B has as many streams as before, and none of A's 500,000 bytes (the servers' own
    // bookkeeping may move B's count by a few bytes meanwhile: a CI run saw it).
    let after = try usage(owner)
    #expect(after[0] == before[0], "\(before) → \(after)")
    #expect(after[1] - before[1] < 500_000, "\(before) → \(after)")
  }

  @Test func accountAFillingItsOwnBucketLeavesBsRoomWhole() throws {
    let bob = try victim()
    let alice = try device(NATSTestCluster.accountA)
    _ = try alice.load()
    let attacker = try NATSTestClient(url: cluster.urls[2], user: NATSTestCluster.accountA)
    let store = try attacker.bucket(layout.bucket)
    defer { kvStore_Destroy(store) }
    // A's client skips the quota check: the server stops it at its bucket's 2.5 MiB.
    let mebibyte = Data(count: 1 << 20)
    var outcomes: [String] = []
    for index in 0..<3 {
      do {
        try attacker.put(mebibyte, key: "fill\(index)", in: store)
        outcomes.append("stored")
      } catch let failure as NATSTestClient.Failure {
        outcomes.append(failure.text)
      }
    }
    #expect(outcomes == ["stored", "stored", "maximum bytes exceeded"])
    try bob.save(["room": record(String(repeating: "b", count: 1_000_000), at: 2)])
    #expect(try bob.load().records.keys.sorted() == ["room", "secret"])
  }
}

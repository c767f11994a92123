import CNATS
import Foundation
import ObservableDefaultsCore
import Synchronization
import TestSupport
import Testing

@testable import ObservableDefaultsNATS

/// The NATS backend's own rules, on the shared 3-server cluster: key and bucket names,
/// compare-and-set between racing devices, hostile bytes in the bucket, and the server's limits.
@Suite struct NATSBackendTests {
  func record(_ value: Any?, at time: Int64, by device: String = "d") -> CloudRecord {
    CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: device))
  }

  @Test func keysAndBucketNamesAreEncodedReversiblyInNATSCharacters() {
    #expect(NATSKeyLayout.key("theme") == "theme")
    #expect(NATSKeyLayout.key("a.b/c=d é>*") == "a=2Eb=2Fc=3Dd=20=C3=A9=3E=2A")
    #expect(NATSKeyLayout.key("-_") == "-_")
    #expect(NATSKeyLayout.key("") == "=")
    for key in ["a.b/c=d é>*", "", "=", "==41", "-_", "日本"] {
      #expect(NATSKeyLayout.storeKey(NATSKeyLayout.key(key)) == key)
    }
    #expect(NATSKeyLayout.storeKey(NATSKeyLayout.markerKey) == nil)
    #expect(NATSKeyLayout.storeKey("a.b") == nil)
    #expect(NATSKeyLayout.storeKey("=G1") == nil)
    #expect(NATSKeyLayout.storeKey("=4") == nil)
    #expect(NATSKeyLayout.storeKey("=FF") == nil, "not UTF-8")
    let layout = NATSKeyLayout(container: "com.example.app", account: "alice-2")
    #expect(layout.bucket == "com_2Eexample_2Eapp-alice_2D2")
    #expect(layout.stream == "KV_com_2Eexample_2Eapp-alice_2D2")
    #expect(layout.subject("a.b") == "$KV.com_2Eexample_2Eapp-alice_2D2.a=2Eb")
    #expect(layout.storeKey(subject: "$KV.com_2Eexample_2Eapp-alice_2D2.a=2Eb") == "a.b")
    #expect(layout.storeKey(subject: "$KV.other.a") == nil)
    #expect(
      NATSKeyLayout(container: "a-b", account: "c").bucket
        != NATSKeyLayout(container: "a", account: "b-c").bucket)
  }

  @Test func aWriteAfterAnotherDevicesWriteIsRefusedAndTheSaveMergesAgain() async throws {
    let cluster = try await NATSTestCluster.shared()
    let configuration = cluster.configuration(container: freshNATSContainer())
    let copy = try NATSBucketCopy(configuration)
    let (device, bucket, mirror) = (copy.device, copy.bucket, copy.mirror)
    let read = try mirror.contents(within: 5)
    #expect(read.entries["k"]?.record?.value as? String == "first")
    try NATSCloudBackend(configuration: configuration).save(["other": record("o", at: 7)])

    let stale = try CloudRecordCodec.encode(record("slower", at: 6))
    #expect(throws: NATSBucket.WriteRefusal.conflict) {
      try bucket.write(stale, to: "k", ifLastRevision: read.revision, header: [:])
    }
    let slower: [PropertyListKey: CloudRecord] = [
      "k": record("slower", at: 6), "other": record("older", at: 6),
    ]
    #expect(try NATSSave.save(slower, to: bucket, mirror: mirror, within: 5) == [])
    #expect(
      try device.load().records.mapValues { $0.value as? String } == [
        "k": "slower", "other": "o",
      ])
    #expect(try mirror.contents(within: 5).revision == read.revision + 2)
  }

  @Test func aDevicesCopyTakesAKeyOfAnotherDevicesSaveWithoutWaitingForTheRestOfIt() async throws {
    let cluster = try await NATSTestCluster.shared()
    let configuration = cluster.configuration(container: freshNATSContainer())
    let copy = try NATSBucketCopy(configuration)
    let (bucket, mirror) = (copy.bucket, copy.mirror)
    let before = try mirror.contents(within: 5)
    // Another device's save of two keys has written its first; a 600-key save on a loaded
    // machine is seconds long, longer than a load may wait for its copy.
    let written = try bucket.write(
      CloudRecordCodec.encode(record("a", at: 6)), to: "a", ifLastRevision: before.revision,
      header: [NATSSave.header: "other-device 2"])
    let after = try mirror.contents(within: 2)
    #expect(after.revision == written)
    #expect(after.entries["a"]?.record?.value as? String == "a")
  }

  @Test func twoDevicesRacingOnOneKeyTheLaterTimestampWinsOnEveryServer() async throws {
    let cluster = try await NATSTestCluster.shared()
    let container = freshNATSContainer()
    let devices = try cluster.servers.map { server in
      try NATSCloudBackend(
        configuration: cluster.configuration(container: container, only: [server]))
    }
    let failures = Mutex<[String]>([])
    for round in 0..<10 {
      let time = Int64(10 * round)
      // Devices on servers 0 and 1 save at once; either may read before the other writes.
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        let later = index == round % 2
        do {
          try devices[index].save(
            ["k": record("\(later ? "later" : "earlier") \(round)", at: time + (later ? 2 : 1))])
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      for device in devices {
        let value = try device.load().records["k"]?.value as? String
        #expect(value == "later \(round)")
      }
    }
    #expect(failures.withLock { $0 } == [])
  }

  @Test func twoDevicesOnTwoServersCannotFillTheContainerPastTheQuotaTogether() async throws {
    let cluster = try await NATSTestCluster.shared()
    let container = freshNATSContainer()
    let devices = try cluster.servers.prefix(2).map { server in
      try NATSCloudBackend(
        configuration: cluster.configuration(container: container, only: [server]))
    }
    _ = try devices[0].load()
    // Each value fits alone (600,000 of 1,048,576 bytes), not both.
    let outcomes = Mutex<[String: String]>([:])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let key = ["a", "b"][index]
      do {
        try devices[index].save([
          PropertyListKey(key): record(Data(count: 600_000), at: Int64(index + 1))
        ])
        outcomes.withLock { $0[key] = "saved" }
      } catch let violation as CloudQuotaViolation {
        outcomes.withLock { $0[key] = "refused \(violation.keys.map(\.string))" }
      } catch {
        outcomes.withLock { $0[key] = "\(error)" }
      }
    }
    let result = outcomes.withLock { $0 }
    #expect(
      result.values.sorted() == ["refused [\"\(result["a"] == "saved" ? "b" : "a")\"]", "saved"])
    let stored = try NATSCloudBackend(configuration: cluster.configuration(container: container))
      .load().records
    #expect(Set(stored.keys) == [result["a"] == "saved" ? "a" : "b"])
  }

  @Test func aMalformedRecordPlantedInTheBucketIsSkippedAndTheRestSyncs() async throws {
    let cluster = try await NATSTestCluster.shared()
    let configuration = cluster.configuration(container: freshNATSContainer())
    let layout = NATSKeyLayout(container: configuration.container, account: "default")
    let recorder = DiagnosticsRecorder()
    defer { recorder.stop() }

    let writer = try NATSCloudBackend(configuration: configuration)
    try writer.save(["good": record("kept", at: 1)])
    let attacker = try NATSTestClient(url: cluster.urls[2], user: NATSTestCluster.accountA)
    let store = try attacker.bucket(layout.bucket)
    defer { kvStore_Destroy(store) }
    try attacker.put(Data("garbage".utf8), key: "bad", in: store)
    try attacker.put(Data([1, 0, 0]), key: "short", in: store)

    let reader = try NATSCloudBackend(configuration: configuration)
    let loaded = try reader.load()
    #expect(Set(loaded.records.keys) == ["good"])
    // The refused keys are named, so a device can show them as undecodable.
    #expect(loaded.refused.keys.sorted() == ["bad", "short"])
    let changes = Mutex<[Set<String>]>([])
    let refusedLater = Mutex<Set<String>>([])
    let subscription = reader.subscribe(from: nil) { event in
      if case .changed(let batch) = event {
        if !batch.records.isEmpty {
          changes.withLock { $0.append(Set(batch.records.keys.map(\.string))) }
        }
        refusedLater.withLock { $0.formUnion(batch.refused.keys.map(\.string)) }
      }
    }
    #expect(await poll { changes.withLock { $0 } == [["good"]] })
    try attacker.put(Data("more garbage".utf8), key: "bad", in: store)
    try writer.save(["after": record("synced", at: 2)])
    #expect(await poll { changes.withLock { $0 }.last == ["after"] })
    #expect(changes.withLock { $0 } == [["good"], ["after"]])
    #expect(refusedLater.withLock { $0 }.isSubset(of: ["bad", "short"]))
    #expect(refusedLater.withLock { $0 }.contains("bad"))
    subscription.cancel()

    // Each refused record (the same key with the same bytes) is reported once in the process,
    // whichever device's batch met it first, in one line per batch naming the first: how the
    // batches fall depends on timing.
    let mine = recorder.diagnostics.filter { $0.message.contains(layout.bucket) }
      .map(\.description)
    let prefix = "NSUbiquitousKeyValueStore: skipped NATS key \(layout.bucket)."
    let possible: Set<String> = [
      prefix + "bad: not an ObservableDefaults record (7 bytes) (and 1 more)",
      prefix + "short: not an ObservableDefaults record (3 bytes) (and 1 more)",
      prefix + "bad: not an ObservableDefaults record (7 bytes)",
      prefix + "short: not an ObservableDefaults record (3 bytes)",
      prefix + "bad: not an ObservableDefaults record (12 bytes)",
    ]
    #expect(Set(mine).isSubset(of: possible), "\(mine)")
    let refusals = mine.map { $0.hasSuffix("(and 1 more)") ? 2 : 1 }.reduce(0, +)
    #expect(refusals == 3, "\(mine)")
    #expect(mine.contains(prefix + "bad: not an ObservableDefaults record (12 bytes)"))
  }

  @Test func aBucketTheServerFindsFullRefusesKeysAsAQuotaViolation() async throws {
    let cluster = try await NATSTestCluster.shared()
    let configuration = cluster.configuration(container: freshNATSContainer())
    let layout = NATSKeyLayout(container: configuration.container, account: "default")
    // An operator made the bucket with a 64 KiB limit: the server refuses what the quota allows.
    let operatorClient = try NATSTestClient(url: cluster.urls[0], user: NATSTestCluster.accountA)
    kvStore_Destroy(try operatorClient.createBucket(layout.bucket, maxBytes: 64 << 10))

    let device = try NATSCloudBackend(configuration: configuration)
    #expect(throws: CloudQuotaViolation(keys: ["big", "big2"])) {
      try device.save([
        "big": record(Data(count: 100_000), at: 1), "big2": record(Data(count: 70_000), at: 1),
        "small": record("fits", at: 1),
      ])
    }
    #expect(Set(try device.load().records.keys) == ["small"])
  }
}

import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// Apple's limits, enforced by bytes: a refused write changes nothing and is reported as a quota
/// violation.
@Suite struct CloudQuotaTests {
  /// Every key and value of `store`, for comparing before and after a refusal.
  func snapshot(_ store: NSUbiquitousKeyValueStore) -> [String: Any] {
    store.dictionaryRepresentation
  }

  func expectUnchanged(_ store: NSUbiquitousKeyValueStore, _ before: [String: Any]) {
    #expect(propertyListValuesEqual(snapshot(store), before))
  }

  @Test func the1025thKeyIsRefusedAndEarlierValuesStay() throws {
    let store = NSUbiquitousKeyValueStore.inMemory()
    let notifications = CloudNotificationLog(store)
    for index in 0..<1024 {
      try store.write(index, forKey: "key-\(index)")
    }
    let before = snapshot(store)
    #expect(before.count == 1024)
    #expect {
      try store.write(1024, forKey: "key-1024")
    } throws: { error in
      (error as? CloudStoreError)?.kind == .tooManyKeys(count: 1025, limit: 1024)
    }
    store.set(1024 as Int64, forKey: "key-1024")
    expectUnchanged(store, before)
    #expect(store.object(forKey: "key-1024") == nil)
    #expect(
      notifications.all
        == Array(
          repeating: .init(
            reason: NSUbiquitousKeyValueStoreQuotaViolationChange, keys: ["key-1024"]), count: 2))
    try store.write("replaced", forKey: "key-7")
    store.removeObject(forKey: "key-8")
    try store.write("fits again", forKey: "key-1024")
    #expect(store.string(forKey: "key-1024") == "fits again")
  }

  @Test func aValueOf1100000BytesIsRefusedAndEarlierValuesStay() throws {
    let store = NSUbiquitousKeyValueStore.inMemory()
    let notifications = CloudNotificationLog(store)
    store.set("kept", forKey: "name")
    store.set(Data(count: 1_000), forKey: "small")
    let before = snapshot(store)
    #expect {
      try store.write(Data(count: 1_100_000), forKey: "big")
    } throws: { error in
      guard let error = error as? CloudStoreError else { return false }
      let expected =
        "name".utf8.count + 4 + "small".utf8.count + 1_000 + "big".utf8.count + 1_100_000
      return error.key == "big"
        && error.kind == .totalSizeExceeded(bytes: expected, limit: 1_048_576)
    }
    store.set(Data(count: 1_100_000), forKey: "name")
    expectUnchanged(store, before)
    #expect(notifications.all.map(\.reason) == [2, 2])
    #expect(notifications.all.map(\.keys) == [["big"], ["name"]])
  }

  @Test func totalOfAllValuesIsLimitedTo1MB() throws {
    let store = NSUbiquitousKeyValueStore.inMemory()
    try store.write(Data(count: 1_000_000), forKey: "a")
    let before = snapshot(store)
    #expect(throws: CloudStoreError.self) { try store.write(Data(count: 48_576), forKey: "b") }
    expectUnchanged(store, before)
    try store.write(Data(count: 48_576 - 2), forKey: "b")
    #expect(store.data(forKey: "b")?.count == 48_574)
    #expect(throws: CloudStoreError.self) { try store.write("x", forKey: "c") }
    // The store is full to the byte; replacing a value frees its old size first.
    try store.write(Data(repeating: 1, count: 1_000_000), forKey: "a")
    #expect(store.data(forKey: "a")?.first == 1)
  }

  @Test func keysOf64BytesOfUTF8AreAcceptedAndLongerRefused() throws {
    let store = NSUbiquitousKeyValueStore.inMemory()
    let notifications = CloudNotificationLog(store)
    store.set("earlier", forKey: "earlier")
    let accepted = String(repeating: "é", count: 32)
    let refused = String(repeating: "é", count: 33)
    #expect(accepted.utf8.count == 64)
    try store.write("ok", forKey: accepted)
    #expect(store.string(forKey: accepted) == "ok")
    let before = snapshot(store)
    #expect {
      try store.write("no", forKey: refused)
    } throws: { error in
      (error as? CloudStoreError)?.kind == .keyTooLong(bytes: 66, limit: 64)
    }
    expectUnchanged(store, before)
    #expect(store.string(forKey: "earlier") == "earlier")
    #expect(notifications.all == [.init(reason: 2, keys: [refused])])
  }

  @Test func refusalsAreNotReportedAsValueChanges() throws {
    let store = NSUbiquitousKeyValueStore.inMemory()
    let log = ChangeLog()
    let observation = store.observe(log.handler)
    #expect(throws: CloudStoreError.self) {
      try store.write(1, forKey: String(repeating: "k", count: 65))
    }
    #expect(log.all.isEmpty)
    withExtendedLifetime(observation) {}
  }

  @Test func theMessageNamesTheKeyTheLimitAndTheSizes() {
    let tooMany = CloudStoreError(key: "volume", kind: .tooManyKeys(count: 1025, limit: 1024))
    #expect(
      tooMany.description
        == "NSUbiquitousKeyValueStore refused \"volume\": 1,025 keys would exceed the limit of 1,024 keys (Apple's iCloud key-value store quota); nothing was changed"
    )
    let big = CloudStoreError(
      key: "big", kind: .totalSizeExceeded(bytes: 1_100_003, limit: 1_048_576))
    #expect(big.description.contains("1,100,003 bytes, over the limit of 1,048,576 bytes"))
    let long = CloudStoreError(key: "k", kind: .keyTooLong(bytes: 66, limit: 64))
    #expect(long.description.contains("the key is 66 bytes of UTF-8, over the limit of 64 bytes"))
  }

  @Test func entrySizesCountBytes() {
    #expect(CloudQuota.entryBytes(key: "é", value: "ab") == 4)
    #expect(CloudQuota.entryBytes(key: "k", value: Data(count: 10)) == 11)
    #expect(CloudQuota.entryBytes(key: "k", value: true) == 2)
    #expect(CloudQuota.entryBytes(key: "k", value: 5) == 9)
    #expect(CloudQuota.entryBytes(key: "k", value: ["ab", 1.5] as [Any]) == 11)
    #expect(CloudQuota.entryBytes(key: "k", value: ["xy": "z"]) == 4)
  }
}

/// Issue 12, item 9: the container holds the limits across devices.
@Suite struct CloudContainerQuotaTests {
  func records(_ prefix: String, _ count: Int, at time: Int64) -> [String: CloudRecord] {
    Dictionary(
      uniqueKeysWithValues: (0..<count).map { index in
        (
          String(format: "%@-%04d", prefix, index),
          CloudRecord(
            value: index, timestamp: CloudTimestamp(time: time, counter: 0, device: prefix))
        )
      })
  }

  /// Every container holds the limits across devices: each device checks only its own copy, so
  /// the container (for etcd: a save merged on what the cluster stores, see
  /// `EtcdSaveTransaction`) refuses what would take it past them.
  @Test(arguments: CloudBackendKind.allCases)
  func twoDevicesCannotFillTheContainerPast1024Keys(kind: CloudBackendKind) async throws {
    try await withCloudContainer(kind) { container in
      try container.device().save(records("a", 700, at: 1))
      let refusedKeys = (700..<1400).map { String(format: "b-%04d", $0 - 700) }.suffix(376)
      #expect {
        try container.device().save(records("b", 700, at: 2))
      } throws: { error in
        (error as? CloudQuotaViolation)?.keys == Array(refusedKeys)
      }
      let stored = try container.device().load().records
      #expect(stored.count == 1024)
      #expect(stored["b-0323"]?.value as? Int == 323)
      #expect(stored["b-0324"] == nil)
      // Updates of existing keys and removals still go through.
      try container.device().save([
        "a-0000": CloudRecord(
          value: "updated", timestamp: CloudTimestamp(time: 3, counter: 0, device: "a")),
        "a-0001": CloudRecord(
          value: nil, timestamp: CloudTimestamp(time: 3, counter: 0, device: "a")),
      ])
      let after = try container.device().load().records
      #expect(after["a-0000"]?.value as? String == "updated")
      try container.device().save(records("c", 1, at: 4))
      #expect(try container.device().load().records["c-0000"]?.value as? Int == 0)
    }
  }

  @Test(arguments: CloudBackendKind.allCases)
  func theWritingDeviceIsToldWhichKeysTheContainerRefusedAndDropsThem(kind: CloudBackendKind)
    async throws
  {
    try await withCloudContainer(kind) { container in
      let (store, _) = try container.store()
      let notifications = CloudNotificationLog(store)
      // Another device fills the container behind this device's back (its copy does not know).
      try container.device().save(records("a", 1020, at: 1))
      for index in 0..<10 { store.set(index, forKey: "mine-\(index)") }
      _ = store.synchronize()
      let stored = try container.device().load().records
      #expect(stored.count == 1024)
      let refused = Set((0..<10).map { "mine-\($0)" }).subtracting(stored.keys)
      #expect(refused.count == 6)
      let toldAll = await poll(within: .seconds(20)) {
        let told = notifications.all.filter {
          $0.reason == NSUbiquitousKeyValueStoreQuotaViolationChange
        }
        return Set(told.flatMap(\.keys)) == refused
      }
      #expect(toldAll, "\(notifications.all)")
      #expect(store.dictionaryRepresentation.count == 1024)
      for key in refused { #expect(store.object(forKey: key) == nil) }
    }
  }
}

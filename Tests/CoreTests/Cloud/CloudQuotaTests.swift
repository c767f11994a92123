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

  /// One save that removes a key and adds another to a full container is taken, whatever the
  /// keys' names. The container took records in key order, so `key-1024` came before the removal
  /// of `key-8` and was refused: the test above failed that way when a loaded machine put its
  /// last three writes into one save.
  @Test func oneSaveThatRemovesAKeyAndAddsAnotherToAFullContainerIsTaken() throws {
    let backend = InMemoryCloudBackend()
    let stamp = { (time: Int64) in CloudTimestamp(time: time, counter: 0, device: "d") }
    var full: [PropertyListKey: CloudRecord] = [:]
    for index in 0..<1024 { full["key-\(index)"] = CloudRecord(value: index, timestamp: stamp(1)) }
    try backend.save(full)
    try backend.save([
      "key-8": CloudRecord(value: nil, timestamp: stamp(2)),
      "key-1024": CloudRecord(value: "fits", timestamp: stamp(2)),
    ])
    let values = backend.load().records.compactMapValues(\.value)
    #expect(values.count == 1024)
    #expect(values["key-1024"] as? String == "fits")
    #expect(values["key-8"] == nil)
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
    let log = DefaultsChangeLog()
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

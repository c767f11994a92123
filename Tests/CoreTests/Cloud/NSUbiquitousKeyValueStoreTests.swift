import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// Apple's API on one device: values, typed getters, local observation, notifications.
@Suite struct NSUbiquitousKeyValueStoreTests {
  @Test func appleSettersAndTypedGetters() {
    let store = NSUbiquitousKeyValueStore.inMemory()
    let date = Date(timeIntervalSince1970: 1_700_000_000.5)
    store.set("text", forKey: "string")
    store.set(Data([1, 2]), forKey: "data")
    store.set([1, "two"] as [Any], forKey: "array")
    store.set(["nested": [true]] as [String: Any], forKey: "dictionary")
    store.set(Int64.max, forKey: "long")
    store.set(2.5, forKey: "double")
    store.set(true, forKey: "bool")
    store.set(date, forKey: "date")
    #expect(store.string(forKey: "string") == "text")
    #expect(store.data(forKey: "data") == Data([1, 2]))
    #expect(store.array(forKey: "array")?.count == 2)
    #expect(store.dictionary(forKey: "dictionary")?["nested"] as? [Bool] == [true])
    #expect(store.longLong(forKey: "long") == Int64.max)
    #expect(store.object(forKey: "long") as? Int == Int.max)
    #expect(store.double(forKey: "double") == 2.5)
    #expect(store.longLong(forKey: "double") == 2)
    #expect(store.double(forKey: "long") == Double(Int64.max))
    #expect(store.bool(forKey: "bool"))
    #expect(store.longLong(forKey: "bool") == 1)
    #expect(store.object(forKey: "date") as? Date == date)
    #expect(store.string(forKey: "long") == nil)
    #expect(store.longLong(forKey: "missing") == 0)
    #expect(!store.bool(forKey: "missing"))
    #expect(store.dictionaryRepresentation.count == 8)

    store.set(nil as String?, forKey: "string")
    store.removeObject(forKey: "data")
    #expect(store.object(forKey: "string") == nil)
    #expect(store.object(forKey: "data") == nil)
    #expect(store.dictionaryRepresentation.count == 6)
  }

  @Test func valuesAreKeptInCanonicalForm() throws {
    let store = NSUbiquitousKeyValueStore.inMemory()
    try store.write(Int8(3), forKey: "small")
    try store.write(Float(1.5), forKey: "float")
    try store.write(NSNumber(value: true), forKey: "number")
    #expect(store.object(forKey: "small") as? Int == 3)
    #expect(store.object(forKey: "float") as? Double == 1.5)
    #expect(store.object(forKey: "number") as? Bool == true)
  }

  @Test func aValueThatIsNotAPropertyListValueIsRefused() {
    let store = NSUbiquitousKeyValueStore.inMemory()
    let notifications = CloudNotificationLog(store)
    #expect {
      try store.write(URL(fileURLWithPath: "/tmp"), forKey: "url")
    } throws: { error in
      (error as? CloudStoreError)?.kind == .invalidValue(type: "URL")
    }
    #expect(store.object(forKey: "url") == nil)
    #expect(notifications.all.isEmpty)
  }

  @Test func localWritesReachObserversSynchronouslyAndPostNoNotification() throws {
    let backend = InMemoryCloudBackend()
    let store = NSUbiquitousKeyValueStore(backend: backend)
    let other = NSUbiquitousKeyValueStore(backend: backend)
    let notifications = CloudNotificationLog(store)
    let changes = DefaultsChangeLog()
    let writerChanges = DefaultsChangeLog()
    let observation = store.observe(changes.handler)
    let writer = other.observe(writerChanges.handler)
    other.set("v", forKey: "k")
    try other.write("w", forKey: "k", excluding: writer)
    other.set("w", forKey: "k")
    #expect(store.string(forKey: "k") == "w")
    #expect(
      changes.all == [
        DefaultsChange(keys: ["k"], origin: .thisProcess),
        DefaultsChange(keys: ["k"], origin: .thisProcess),
      ])
    #expect(writerChanges.all == [DefaultsChange(keys: ["k"], origin: .thisProcess)])
    #expect(notifications.all.isEmpty)
    withExtendedLifetime((observation, writer)) {}
  }

  /// (`default` is checked by `EmbeddedCloudBackendTests` in a probe: it would use the real home.)
  @Test func storesOnOneBackendShareOneDevice() {
    let backend = InMemoryCloudBackend()
    let first = NSUbiquitousKeyValueStore(backend: backend)
    let second = NSUbiquitousKeyValueStore(backend: backend)
    first.set(1 as Int64, forKey: "k")
    #expect(second.longLong(forKey: "k") == 1)
    #expect(NSUbiquitousKeyValueStore.inMemory().object(forKey: "k") == nil)
  }

  @Test func aLaterWriteWinsEvenOverAWriteStampedByAClockAhead() async throws {
    let phone = InMemoryCloudBackend()
    let laptop = phone.anotherDevice()
    let store = NSUbiquitousKeyValueStore(backend: phone)
    let hourAhead = Int64((Date().timeIntervalSince1970 + 3600) * 1_000_000)
    try laptop.save([
      "k": CloudRecord(
        value: "from the future",
        timestamp: CloudTimestamp(time: hourAhead, counter: 0, device: "laptop"))
    ])
    #expect(await poll { store.string(forKey: "k") == "from the future" })
    store.set("later", forKey: "k")
    #expect(store.synchronize())
    #expect(laptop.load().records["k"]?.value as? String == "later")
    #expect(store.string(forKey: "k") == "later")
  }
}

/// Calls written as for Apple's store pick an overload and compile.
@Test func appleStyleCallsCompile() {
  let store = NSUbiquitousKeyValueStore.inMemory()
  store.set(5, forKey: "literal")
  store.set("text", forKey: "string")
  store.set(["a", "b"], forKey: "strings")
  store.set(["k": 1], forKey: "map")
  let count: Int = 3
  store.set(count, forKey: "int")
  store.set(nil as Any?, forKey: "string")
  #expect(store.longLong(forKey: "literal") == 5)
  #expect(store.array(forKey: "strings") as? [String] == ["a", "b"])
  #expect(store.dictionary(forKey: "map")?["k"] as? Int == 1)
  #expect(store.longLong(forKey: "int") == 3)
  #expect(store.object(forKey: "string") == nil)
}

import Foundation
import ObservableDefaultsCore
import Testing

/// The checks of the limits a container holds across devices.
extension Devices {
  func twoDevicesCannotFillTheContainerPast1024Keys() async throws {
    try device().save(records("a", 700, at: 1))
    let refusedKeys = (700..<1400).map { PropertyListKey(String(format: "b-%04d", $0 - 700)) }
      .suffix(376)
    #expect {
      try device().save(records("b", 700, at: 2))
    } throws: { error in
      (error as? CloudQuotaViolation)?.keys == Array(refusedKeys)
    }
    let stored = try device().load().records
    #expect(stored.count == 1024)
    #expect(stored["b-0323"]?.value as? Int == 323)
    #expect(stored["b-0324"] == nil)
    // Updates of existing keys and removals still go through.
    try device().save([
      "a-0000": CloudRecord(
        value: "updated", timestamp: CloudTimestamp(time: 3, counter: 0, device: "a")),
      "a-0001": CloudRecord(
        value: nil, timestamp: CloudTimestamp(time: 3, counter: 0, device: "a")),
    ])
    let after = try device().load().records
    #expect(after["a-0000"]?.value as? String == "updated")
    try device().save(records("c", 1, at: 4))
    #expect(try device().load().records["c-0000"]?.value as? Int == 0)
  }

  func theWritingDeviceIsToldWhichKeysTheContainerRefusedAndDropsThem() async throws {
    let (store, _) = try store()
    let notifications = CloudNotificationLog(store)
    // Another device fills the container behind this device's back (its copy does not know).
    try device().save(records("a", 1020, at: 1))
    for index in 0..<10 { store.set(index, forKey: "mine-\(index)") }
    _ = store.synchronize()
    let stored = try device().load().records
    #expect(stored.count == 1024)
    let refused = Set((0..<10).map { PropertyListKey("mine-\($0)") }).subtracting(stored.keys)
    #expect(refused.count == 6)
    let toldAll = await poll(within: .seconds(20)) {
      let told = notifications.all.filter {
        $0.reason == NSUbiquitousKeyValueStoreQuotaViolationChange
      }
      return Set(told.flatMap(\.keys).map { PropertyListKey($0) }) == refused
    }
    #expect(toldAll, "\(notifications.all)")
    #expect(store.dictionaryRepresentation.count == 1024)
    for key in refused { #expect(store.object(forKey: key.string) == nil) }
  }
}

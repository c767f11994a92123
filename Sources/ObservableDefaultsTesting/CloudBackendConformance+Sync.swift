import Foundation
import ObservableDefaultsCore
import Testing

/// The checks of several devices syncing through `NSUbiquitousKeyValueStore`.
extension Devices {
  func sameKeyOnTwoDevicesTheLaterWriteWinsOnBoth() async throws {
    let (phone, _) = try store()
    let (laptop, _) = try store()
    phone.set("phone", forKey: "theme")
    laptop.set("laptop", forKey: "theme")
    #expect(phone.synchronize() && laptop.synchronize())
    #expect(await poll { phone.string(forKey: "theme") == "laptop" })
    #expect(laptop.string(forKey: "theme") == "laptop")
    let (fresh, _) = try store()
    #expect(fresh.string(forKey: "theme") == "laptop")

    laptop.removeObject(forKey: "theme")
    laptop.synchronize()
    #expect(await poll { phone.object(forKey: "theme") == nil })
    phone.set("again", forKey: "theme")
    phone.synchronize()
    #expect(await poll { laptop.string(forKey: "theme") == "again" })
  }

  func differentKeysOnTwoDevicesBothSurvive() async throws {
    let (phone, _) = try store()
    let (laptop, _) = try store()
    phone.set("phone", forKey: "a")
    laptop.set("laptop", forKey: "b")
    #expect(phone.synchronize() && laptop.synchronize() && phone.synchronize())
    for store in [phone, laptop, try store().0] {
      #expect(store.string(forKey: "a") == "phone")
      #expect(store.string(forKey: "b") == "laptop")
    }
  }

  func aFreshDeviceWithDefaultsDoesNotOverwriteCloudValues() async throws {
    let (phone, _) = try store()
    phone.set(7 as Int64, forKey: "volume")
    phone.set("Fatbobman", forKey: "name")
    #expect(phone.synchronize())

    // A new device whose settings declare defaults: it writes a default only where the store
    // has no value, and it has pulled the cloud's values before anything else.
    let (fresh, writes) = try store()
    let defaults: [String: Any] = ["volume": 5, "name": "Guest", "onlyHere": true]
    for (key, value) in defaults where fresh.object(forKey: key) == nil {
      fresh.set(value, forKey: key)
    }
    #expect(fresh.longLong(forKey: "volume") == 7)
    #expect(fresh.string(forKey: "name") == "Fatbobman")
    #expect(fresh.synchronize())
    #expect(writes.savedKeys == [["onlyHere"]])
    #expect(phone.synchronize())
    #expect(phone.longLong(forKey: "volume") == 7)
    #expect(phone.string(forKey: "name") == "Fatbobman")
    #expect(phone.bool(forKey: "onlyHere"))
  }

  func threeRestartsWithoutEditsPerformZeroWrites() async throws {
    let (first, firstWrites) = try store()
    first.set("value", forKey: "k")
    first.set(1.5, forKey: "d")
    #expect(first.synchronize())
    #expect(firstWrites.saveCount >= 1)
    for _ in 1...3 {
      let (restarted, writes) = try store()
      #expect(restarted.string(forKey: "k") == "value")
      // Reading, and writing back what is already stored, are not edits.
      restarted.set(restarted.string(forKey: "k"), forKey: "k")
      restarted.set(restarted.double(forKey: "d"), forKey: "d")
      #expect(restarted.synchronize())
      #expect(writes.saveCount == 0)
    }
  }

  func remoteChangesArriveAsServerChangesNamingExactlyTheChangedKeys() async throws {
    let (mine, myWrites) = try store()
    let (theirs, _) = try store()
    mine.set("same", forKey: "unchanged")
    #expect(mine.synchronize())
    #expect(await poll { theirs.string(forKey: "unchanged") == "same" })
    let notifications = CloudNotificationLog(mine)
    let changes = DefaultsChangeLog()
    let observation = mine.observe(changes.handler)
    theirs.set("new", forKey: "changed")
    theirs.set("same", forKey: "unchanged")
    #expect(theirs.synchronize())
    #expect(await poll { !notifications.all.isEmpty })
    // Changes arrive in order: once a later save is there, nothing more of the first can come.
    theirs.set("x", forKey: "later")
    #expect(theirs.synchronize())
    #expect(await poll { notifications.all.count >= 2 && changes.all.count >= 2 })
    #expect(
      notifications.all == [
        .init(reason: NSUbiquitousKeyValueStoreServerChange, keys: ["changed"]),
        .init(reason: NSUbiquitousKeyValueStoreServerChange, keys: ["later"]),
      ])
    #expect(
      changes.all == [
        DefaultsChange(keys: ["changed"], origin: .otherProcess),
        DefaultsChange(keys: ["later"], origin: .otherProcess),
      ])
    #expect(mine.string(forKey: "changed") == "new")
    #expect(myWrites.saveCount == 1)
    withExtendedLifetime(observation) {}
  }

  func switchingAccountReplacesValuesAndReportsTheAccountChange() async throws {
    let (bob, _) = try store(account: "bob")
    bob.set("bob", forKey: "owner")
    bob.set("same", forKey: "both")
    #expect(bob.synchronize())
    let (device, _) = try store(account: "alice")
    device.set("alice", forKey: "owner")
    device.set("same", forKey: "both")
    device.set("alice only", forKey: "extra")
    let notifications = CloudNotificationLog(device)
    let changes = DefaultsChangeLog()
    let observation = device.observe(changes.handler)
    try device.switchAccount(to: "bob")
    #expect(await poll { !notifications.all.isEmpty })
    #expect(
      notifications.all == [
        .init(reason: NSUbiquitousKeyValueStoreAccountChange, keys: ["extra", "owner"])
      ])
    #expect(changes.all == [DefaultsChange(keys: ["extra", "owner"], origin: .otherProcess)])
    #expect(
      propertyListValuesEqual(device.dictionaryRepresentation, ["owner": "bob", "both": "same"]))
    // What was written before the switch was saved to the old account.
    #expect(try store(account: "alice").0.string(forKey: "extra") == "alice only")
    withExtendedLifetime(observation) {}
  }
}

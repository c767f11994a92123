import Foundation
import ObservableDefaults
import Synchronization
import Testing

@testable import ObservableDefaultsCore

/// A property of a common type (`String`, `Int`, `Bool`, `Double`, `Date`, `Data`) is written to
/// its suite typed (``PropertyListScalar``): the suite compares no two `Any` values, and stores
/// and reports what the write of the value as `Any` stored and reported.
@Suite struct ScalarWritePathTests {
  @Test func writesOfCommonTypesCompareNoAnyValues() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = TypeSettings(userDefaults: store)
    let preferences = Preferences(userDefaults: store)
    let changes = Mutex<[String]>([])
    let observation = store.observe { change in changes.withLock { $0 += change.keys.sorted() } }
    defer { observation.cancel() }
    let date = Date(timeIntervalSinceReferenceDate: 1)
    // Every write a new value (none is its property's default).
    for round in 1...250 {
      settings.string = "s\(round)"
      settings.int = round * 2
      settings.bool = !round.isMultiple(of: 2)
      settings.double = Double(round)
      settings.date = date.addingTimeInterval(Double(round))
      settings.data = Data([UInt8(round)])
      // A prefixed key, and a key of its own.
      preferences.volume = Double(round)
    }
    // Each key's first write replaces no value: nothing to compare.
    #expect(store.storage.untypedWriteComparisons == 0)
    #expect(changes.withLock { $0.count } == 7 * 250)

    // Other types take the general comparison: an optional, an enum, an `Int8`.
    for round in 1...10 {
      settings.optionalString = "o\(round)"
      settings.level = round.isMultiple(of: 2) ? .low : .high
      settings.int8 = Int8(round)
    }
    #expect(store.storage.untypedWriteComparisons == 3 * 9)

    try store.flush()
    let file = try suite.fileValues()
    #expect(file["string"] as? String == "s250")
    #expect(file["int"] as? Int == 500)
    #expect(file["bool"] as? Bool == false)
    #expect(file["double"] as? Double == 250)
    #expect(file["date"] as? Date == date.addingTimeInterval(250))
    #expect(file["data"] as? Data == Data([250]))
    #expect(file["app_volume-level"] as? Double == 250)
    #expect(file["optionalString"] as? String == "o10")
  }

  /// The value a typed write replaces is compared by its Unicode scalars: "e\u{301}" over
  /// "\u{E9}" is a change, stored and told, as it is for the write as `Any`.
  @Test func aTypedWriteOfAnotherFormOfAStringIsAChange() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = TypeSettings(userDefaults: store)
    let told = Mutex(0)
    let observation = store.observe { _ in told.withLock { $0 += 1 } }
    defer { observation.cancel() }
    settings.string = "\u{E9}"
    settings.string = "e\u{301}"
    #expect(told.withLock { $0 } == 2)
    #expect(store.object(forKey: "string") as? String == "e\u{301}")
    #expect(store.storage.untypedWriteComparisons == 0)
  }

  /// A write goes to the store the object uses when it is made: the store and observation the
  /// writes keep (``WriteTarget``) are made again after the store is replaced.
  @Test func writesAfterTheStoreIsReplacedGoToTheNewStore() {
    let (first, second) = (TemporarySuite(), TemporarySuite())
    let settings = SettingsOnAStore(first.store())
    settings.name = "one"
    settings.use(second.store())
    settings.name = "two"
    #expect(first.store().string(forKey: "name") == "one")
    #expect(second.store().string(forKey: "name") == "two")
    #expect(settings.name == "two")
  }
}

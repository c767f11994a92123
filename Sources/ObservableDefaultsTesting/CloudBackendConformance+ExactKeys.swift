import Foundation
import ObservableDefaultsCore
import Testing

/// The checks of keys that differ only in Unicode normalization (`é` as U+00E9 and as `e`
/// U+0301): two keys of a container, as of a property-list file, CoreFoundation and Apple's
/// Foundation, though Swift's `String` calls them equal.
extension Devices {
  /// `é` as one scalar (U+00E9).
  static let composed = "\u{E9}"
  /// `é` as `e` and a combining acute accent (U+0065 U+0301).
  static let decomposed = "e\u{301}"

  func keysThatDifferOnlyInNormalizationStayTwoKeys() async throws {
    let (phone, _) = try store()
    let (laptop, _) = try store()
    let notifications = CloudNotificationLog(laptop)
    phone.set("composed", forKey: Self.composed)
    phone.set("decomposed", forKey: Self.decomposed)
    #expect(phone.string(forKey: Self.composed) == "composed")
    #expect(phone.string(forKey: Self.decomposed) == "decomposed")
    #expect(phone.synchronize())

    let stored = try device().load().records
    #expect(stored[Self.composed]?.value as? String == "composed")
    #expect(stored[Self.decomposed]?.value as? String == "decomposed")
    let expected: [PropertyListKey: String] = [
      PropertyListKey(Self.composed): "composed", PropertyListKey(Self.decomposed): "decomposed",
    ]
    #expect(await poll { laptop.exactDictionaryRepresentation.count == 2 })
    for store in [phone, laptop, try store().0] {
      #expect(store.exactDictionaryRepresentation.mapValues { $0 as? String } == expected)
      #expect(store.string(forKey: Self.composed) == "composed")
      #expect(store.string(forKey: Self.decomposed) == "decomposed")
    }
    // The notification names both keys, each with its own scalars. The store takes the new
    // values before it tells its observers, so wait for the telling.
    #expect(
      await poll {
        Set(notifications.all.flatMap(\.keys).map { PropertyListKey($0) }) == Set(expected.keys)
      })

    // A write of one form changes that key only, on every device.
    laptop.set("d2", forKey: Self.decomposed)
    #expect(laptop.synchronize())
    #expect(await poll { phone.string(forKey: Self.decomposed) == "d2" })
    #expect(phone.string(forKey: Self.composed) == "composed")
    let after = try device().load().records
    #expect(after.count == 2)
    #expect(after[Self.composed]?.value as? String == "composed")
    #expect(after[Self.decomposed]?.value as? String == "d2")
  }

  func nestedKeysThatDifferOnlyInNormalizationStayTwoKeys() async throws {
    var nested: [PropertyListKey: Any] = [:]
    nested[PropertyListKey(Self.composed)] = "composed"
    nested[PropertyListKey(Self.decomposed)] = "decomposed"
    try device().save(["m": record(nested, at: 1)])
    let loaded = try device().load().records["m"]?.value as? [PropertyListKey: Any]
    #expect(loaded?.mapValues { $0 as? String } == nested.mapValues { $0 as? String })
  }
}

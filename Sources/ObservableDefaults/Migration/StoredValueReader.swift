import Foundation

/// Reads a persisted property's value from what a store holds, across the property's versions:
/// under its key or a previous key (``StorageKeys``), in its type's stored form or an earlier
/// version's (``StoredFormConversion``).
///
/// A value under a previous key is converted first (it was written by an earlier version; an
/// `Int` of seconds would also decode as a `Double`), then decoded as the current type; a value
/// under the key is decoded first, then converted.
struct StoredValueReader<Value> {
  let keys: StorageKeys
  /// The codec of the property's current type.
  let codec: DefaultsCodec<Value>
  let conversion: StoredFormConversion<Value>?

  /// A stored form and what it reads as.
  struct Reading {
    /// The key it was found under, with the prefix.
    let key: String
    let stored: Any
    /// The value it reads as; `nil` when it does not decode.
    let value: Value?
    /// Whether it must be written again in the current form under the key: it lies under a
    /// previous key, or was converted from an earlier version's form.
    let isOldForm: Bool
  }

  /// What is stored for the property, or `nil` when nothing is.
  /// - Parameter includingDefaults: Whether a registered default of the key counts as stored
  ///   (for reading the property's value), or only what the store holds (for migrating it).
  func reading(in store: any ObservableKeyValueStore, prefix: String, includingDefaults: Bool)
    -> Reading?
  {
    let key = keys.readKey(in: store, prefix: prefix)
    let isPrevious = key != prefix + keys.key
    let found = includingDefaults ? store.object(forKey: key) : store.storedObject(forKey: key)
    guard let stored = found else { return nil }
    if isPrevious, let converted = conversion?.convert(stored) {
      return Reading(key: key, stored: stored, value: converted, isOldForm: true)
    }
    if let value = codec.decode(stored) {
      return Reading(key: key, stored: stored, value: value, isOldForm: isPrevious)
    }
    let converted = conversion?.convert(stored)
    return Reading(
      key: key, stored: stored, value: converted, isOldForm: isPrevious || converted != nil)
  }

  /// The writes that put what is stored under the key in the current form and remove every
  /// previous key; `nil` when there is nothing to do. A value that does not decode is moved as
  /// it is (its bytes are never lost).
  func migrationWrites(in store: any ObservableKeyValueStore, prefix: String) -> [String: Any?]? {
    guard let reading = reading(in: store, prefix: prefix, includingDefaults: false) else {
      return nil
    }
    let writes = keys.writes(storing: newForm(of: reading), in: store, prefix: prefix)
    return reading.isOldForm || writes.count > 1 ? writes : nil
  }

  /// What the next write (or a migration) will change in the store for this property, for
  /// people; `nil` when the value is stored under the key in the current form and no previous
  /// key holds a value.
  func pendingMigration(in store: any ObservableKeyValueStore, prefix: String) -> String? {
    guard !keys.previousKeys.isEmpty || conversion != nil else { return nil }
    let lingering = keys.previousKeys.filter { store.storedObject(forKey: prefix + $0) != nil }
    guard let reading = reading(in: store, prefix: prefix, includingDefaults: false),
      reading.isOldForm
    else {
      guard !lingering.isEmpty else { return nil }
      return
        "previous key \(Self.list(lingering, prefix: prefix)) still holds a value; the next write removes it"
    }
    let key = prefix + keys.key
    guard reading.key == key else {
      return "stored under the previous key '\(reading.key)'; the next write moves it to '\(key)'"
        + " and removes \(Self.list(lingering, prefix: prefix))"
    }
    return "stored in an earlier version's form; the next write stores it in the current form"
  }

  /// `'a'` or `'a', 'b'`.
  private static func list(_ keys: [String], prefix: String) -> String {
    keys.map { "'\(prefix + $0)'" }.joined(separator: ", ")
  }

  /// The form to store for a reading: the value encoded when it was converted, else the stored
  /// form as it is.
  private func newForm(of reading: Reading) -> Any? {
    guard reading.isOldForm, let value = reading.value else { return reading.stored }
    return codec.encode(value)
  }
}

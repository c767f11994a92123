import Foundation

/// The keys a persisted property's value may be stored under: its key, then the keys it had in
/// earlier versions (`previousKeys:` of `@DefaultsKey`, `@DefaultsBacked`, `@CloudKey`,
/// `@CloudBacked`), newest first. All without the object's prefix.
struct StorageKeys: Sendable {
  /// The key the property is stored under from now on.
  let key: String
  /// Keys of earlier versions, newest first.
  let previousKeys: [String]

  /// The key (with `prefix`) whose value the property reads: the first of ``key`` and
  /// ``previousKeys`` that holds a stored value, else ``key`` (which may have a registered default).
  func readKey(in store: any ObservableKeyValueStore, prefix: String) -> String {
    guard !previousKeys.isEmpty, store.storedObject(forKey: prefix + key) == nil,
      let previous = previousKeys.first(where: { store.storedObject(forKey: prefix + $0) != nil })
    else { return prefix + key }
    return prefix + previous
  }

  /// The writes that store `value` (nil: remove) under ``key`` and remove every previous key that
  /// still holds a value: one write for the store, so the value moves at once.
  func writes(storing value: Any?, in store: any ObservableKeyValueStore, prefix: String)
    -> [String: Any?]
  {
    var writes: [String: Any?] = [prefix + key: value]
    guard !previousKeys.isEmpty else { return writes }
    for previous in previousKeys where store.storedObject(forKey: prefix + previous) != nil {
      writes[prefix + previous] = .some(nil)
    }
    return writes
  }

  /// Whether a change of these keys (with `prefix`) concerns the property.
  func isChanged(by change: DefaultsChange, prefix: String) -> Bool {
    change.contains(prefix + key) || previousKeys.contains { change.contains(prefix + $0) }
  }
}

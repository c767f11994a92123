/// The keys in which two versions of a document's values differ.
enum PropertyListDiff {
  /// The keys added, changed or removed from `old` to `new` (compared with
  /// ``propertyListValuesEqual(_:_:)``).
  ///
  /// - Complexity: O(*n*) in the keys of both, without copying a value.
  static func changedKeys(from old: [PropertyListKey: Any], to new: [PropertyListKey: Any])
    -> Set<PropertyListKey>
  {
    var changedKeys = Set<PropertyListKey>()
    for (key, value) in new where !propertyListValuesEqual(old[key], value) {
      changedKeys.insert(key)
    }
    for key in old.keys where new[key] == nil { changedKeys.insert(key) }
    return changedKeys
  }
}

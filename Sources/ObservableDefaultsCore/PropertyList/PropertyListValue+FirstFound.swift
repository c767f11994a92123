import Foundation

extension PropertyListValue {
  /// The first place in `value`, in key order, where `inKey` finds something in a dictionary's
  /// key or `inLeaf` in a value that is neither an array nor a dictionary: its key path (keys,
  /// and `[index]` for an array's elements) and what was found; nil when nothing is found.
  ///
  /// Key order: an array's elements by index; a dictionary's entries (`[String: Any]` or
  /// `[PropertyListKey: Any]`) by their keys' Unicode scalars (``PropertyListKey/<(_:_:)``), a
  /// key before its value. Dictionaries are not sorted: of their entries where something is
  /// found, the one with the first key is kept, so a value where nothing is found costs one
  /// visit of each element and no key comparison (sorting each dictionary was two thirds of the
  /// checks before `export` of a 100,000-key suite, and it made a key path for every entry).
  ///
  /// - Parameters:
  ///   - value: A canonical property-list value (see ``normalized(_:)``).
  ///   - inKey: What is found in a key, or nil.
  ///   - inLeaf: What is found in a scalar value, or nil.
  package static func firstFound<Found>(
    in value: Any, inKey: (String) -> Found?, inLeaf: (Any) -> Found?
  ) -> (path: [String], found: Found)? {
    switch Container(value) {
    case .exact(let entries):
      return firstFound(in: entries, exactKey: { $0 }, inKey: inKey, inLeaf: inLeaf)
    case .keyed(let entries):
      return firstFound(
        in: entries, exactKey: { PropertyListKey($0) }, inKey: inKey, inLeaf: inLeaf)
    case .array(let items):
      for (index, item) in items.enumerated() {
        if let inner = firstFound(in: item, inKey: inKey, inLeaf: inLeaf) {
          return (["[\(index)]"] + inner.path, inner.found)
        }
      }
      return nil
    case nil:
      return inLeaf(value).map { ([], $0) }
    }
  }

  /// An array or dictionary that ``firstFound(in:inKey:inLeaf:)`` walks.
  private enum Container {
    case exact([PropertyListKey: Any])
    case keyed([String: Any])
    case array([Any])

    /// `value` as an array or dictionary, nil for a scalar. Canonical containers and scalars
    /// are told by their dynamic type, without a cast; a container of another static type
    /// (`[String]`, `[String: Int]`, as a caller of the file's own API may build it) is cast.
    init?(_ value: Any) {
      let kind = type(of: value)
      if kind == [PropertyListKey: Any].self {
        self = .exact(ObservableDefaultsCore.value(value, as: [PropertyListKey: Any].self))
      } else if kind == [String: Any].self {
        self = .keyed(ObservableDefaultsCore.value(value, as: [String: Any].self))
      } else if kind == [Any].self {
        self = .array(ObservableDefaultsCore.value(value, as: [Any].self))
      } else if kind == String.self || kind == Int.self || kind == Double.self
        || kind == Bool.self || kind == Date.self || kind == Data.self
      {
        return nil
      } else if let entries = value as? [PropertyListKey: Any] {
        self = .exact(entries)
      } else if let entries = value as? [String: Any] {
        self = .keyed(entries)
      } else if let items = value as? [Any] {
        self = .array(items)
      } else {
        return nil
      }
    }
  }

  /// ``firstFound(in:inKey:inLeaf:)`` in the entry with the first key that holds something.
  private static func firstFound<Key: Hashable, Found>(
    in entries: [Key: Any], exactKey: (Key) -> PropertyListKey, inKey: (String) -> Found?,
    inLeaf: (Any) -> Found?
  ) -> (path: [String], found: Found)? {
    var first: (key: PropertyListKey, path: [String], found: Found)?
    for (entryKey, item) in entries {
      let key = exactKey(entryKey)
      if let first, !(key < first.key) { continue }
      if let found = inKey(key.string) {
        first = (key, [key.string], found)
      } else if let inner = firstFound(in: item, inKey: inKey, inLeaf: inLeaf) {
        first = (key, [key.string] + inner.path, inner.found)
      }
    }
    return first.map { ($0.path, $0.found) }
  }
}

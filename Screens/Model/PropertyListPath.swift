import Foundation
package import ObservableDefaultsCore

/// One step of a path into a property list: a dictionary key or an array index.
///
/// A path is an array of components from the top-level dictionary, e.g.
/// `["New Bookmarks", 0, "Columns"]`. Keys are compared by their exact Unicode scalars
/// (``PropertyListKey``): keys that differ only in Unicode normalization are two paths.
package enum PropertyListPathComponent: Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral, ExpressibleByIntegerLiteral
{
  /// A key of a dictionary.
  case key(String)
  /// An index of an array.
  case index(Int)

  /// Creates a key component.
  package init(stringLiteral value: String) { self = .key(value) }

  /// Creates an index component.
  package init(integerLiteral value: Int) { self = .index(value) }

  /// Whether both are the same index, or keys with the same Unicode scalars.
  package static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.key(let left), .key(let right)): PropertyListKey(left) == PropertyListKey(right)
    case (.index(let left), .index(let right)): left == right
    default: false
    }
  }

  /// Hashes a key's UTF-8 bytes, or an index.
  package func hash(into hasher: inout Hasher) {
    switch self {
    case .key(let key): hasher.combine(PropertyListKey(key))
    case .index(let index): hasher.combine(index)
    }
  }

  /// The key itself, or the index in brackets (`[0]`).
  package var description: String {
    switch self {
    case .key(let key): key
    case .index(let index): "[\(index)]"
    }
  }
}

/// A path from the top-level dictionary of a property list to one of its values.
package typealias PropertyListPath = [PropertyListPathComponent]

/// A path that leads to no value of a property list.
package struct PropertyListPathError: Error, Equatable, CustomStringConvertible {
  /// The path asked for.
  package let path: PropertyListPath

  /// Creates the error for `path`.
  package init(path: PropertyListPath) {
    self.path = path
  }

  /// Names the path, e.g. `no value at New Bookmarks / [3]`.
  package var description: String {
    "no value at " + path.map(\.description).joined(separator: " / ")
  }
}

/// Reading and replacing values deep inside a property list by ``PropertyListPath``.
package enum PropertyListTree {
  /// The value at `path` in `root`, or nil when the path leads nowhere.
  ///
  /// - Parameters:
  ///   - path: Keys and indexes from the top level; an empty path is `root` itself.
  ///   - root: A top-level dictionary in canonical form, by exact key.
  package static func value(at path: PropertyListPath, in root: [PropertyListKey: Any]) -> Any? {
    // The top level is looked up as the typed dictionary it is: cast from `Any`, a dictionary
    // of a million keys is first tried as `[String: Any]`, which converts (allocates and copies)
    // every entry before it fails: a search of a million-key suite took minutes.
    guard case .key(let key)? = path.first else { return path.isEmpty ? root : nil }
    guard let top = root[key] else { return nil }
    return value(at: path.dropFirst(), below: top)
  }

  /// The value at `path` below the top-level values `root` reads, or nil when the path leads
  /// nowhere (only the first key's value is read).
  ///
  /// - Parameters:
  ///   - path: Keys and indexes from the top level; not empty.
  ///   - root: Reads the value of a top-level key (nil: not stored).
  package static func value(at path: PropertyListPath, in root: (PropertyListKey) -> Any?)
    -> Any?
  {
    guard case .key(let key)? = path.first, let top = root(PropertyListKey(key)) else {
      return nil
    }
    return value(at: path.dropFirst(), below: top)
  }

  /// The value at `path` below `value` (a container, or any value for an empty path), or nil
  /// when the path leads nowhere.
  package static func value(at path: some Collection<PropertyListPathComponent>, below value: Any)
    -> Any?
  {
    var current = value
    for component in path {
      guard let next = child(component, of: current) else { return nil }
      current = next
    }
    return current
  }

  /// `root` with the value at `path` replaced by `value`; every other value is kept as it is.
  ///
  /// - Parameters:
  ///   - value: A property-list value in canonical form.
  ///   - path: A non-empty path to an existing value, or to a new key of an existing dictionary.
  ///   - root: The top-level dictionary.
  /// - Returns: The new top-level dictionary.
  /// - Throws: ``PropertyListPathError`` when the path does not lead to a container that holds
  ///   (or, for a dictionary, can hold) the last component.
  package static func setting(
    _ value: Any, at path: PropertyListPath, in root: [PropertyListKey: Any]
  ) throws(PropertyListPathError) -> [PropertyListKey: Any] {
    guard !path.isEmpty,
      let result = replacing(in: root, path[...], with: value) as? [PropertyListKey: Any]
    else { throw PropertyListPathError(path: path) }
    return result
  }

  private static func child(_ component: PropertyListPathComponent, of container: Any) -> Any? {
    switch (component, container) {
    case (.key(let key), let dictionary as [String: Any]): dictionary[key]
    case (.key(let key), let dictionary as [PropertyListKey: Any]): dictionary[key]
    case (.index(let index), let array as [Any]) where array.indices.contains(index): array[index]
    default: nil
    }
  }

  private static func replacing(
    in container: Any, _ path: ArraySlice<PropertyListPathComponent>,
    with value: Any
  ) -> Any? {
    guard let first = path.first else { return value }
    let rest = path.dropFirst()
    switch (first, container) {
    case (.key(let key), var dictionary as [String: Any]):
      return replacing(key, in: &dictionary, rest, with: value) ? dictionary : nil
    case (.key(let key), var dictionary as [PropertyListKey: Any]):
      return replacing(PropertyListKey(key), in: &dictionary, rest, with: value) ? dictionary : nil
    case (.index(let index), var array as [Any]) where array.indices.contains(index):
      guard let replaced = replacing(in: array[index], rest, with: value) else { return nil }
      array[index] = replaced
      return array
    default:
      return nil
    }
  }

  /// Replaces the value at `rest` below `key` of `dictionary` (a top dictionary, by exact key,
  /// or a nested one); false when `rest` leads nowhere.
  private static func replacing<Key: Hashable>(
    _ key: Key, in dictionary: inout [Key: Any], _ rest: ArraySlice<PropertyListPathComponent>,
    with value: Any
  ) -> Bool {
    if rest.isEmpty {
      dictionary[key] = value
      return true
    }
    guard let inner = dictionary[key], let replaced = replacing(in: inner, rest, with: value)
    else { return false }
    dictionary[key] = replaced
    return true
  }
}

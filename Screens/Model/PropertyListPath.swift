import Foundation

/// One step of a path into a property list: a dictionary key or an array index.
///
/// A path is an array of components from the top-level dictionary, e.g.
/// `["New Bookmarks", 0, "Columns"]`.
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
  ///   - root: A top-level dictionary in canonical form.
  package static func value(at path: PropertyListPath, in root: [String: Any]) -> Any? {
    var current: Any = root
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
  package static func setting(_ value: Any, at path: PropertyListPath, in root: [String: Any])
    throws(PropertyListPathError) -> [String: Any]
  {
    guard !path.isEmpty, let result = replacing(in: root, path[...], with: value) as? [String: Any]
    else { throw PropertyListPathError(path: path) }
    return result
  }

  private static func child(_ component: PropertyListPathComponent, of container: Any) -> Any? {
    switch (component, container) {
    case (.key(let key), let dictionary as [String: Any]): dictionary[key]
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
      if rest.isEmpty {
        dictionary[key] = value
        return dictionary
      }
      guard let inner = dictionary[key], let replaced = replacing(in: inner, rest, with: value)
      else { return nil }
      dictionary[key] = replaced
      return dictionary
    case (.index(let index), var array as [Any]) where array.indices.contains(index):
      guard let replaced = replacing(in: array[index], rest, with: value) else { return nil }
      array[index] = replaced
      return array
    default:
      return nil
    }
  }
}

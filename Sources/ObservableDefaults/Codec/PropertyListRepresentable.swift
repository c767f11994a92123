import Foundation

/// How a value is written to and read from a property list: the form behind the marker
/// ``UserDefaultsPropertyListValue`` for the types this library knows. Not meant to be used directly.
public protocol _PropertyListRepresentable {
  /// The value as Foundation's `PropertyListSerialization` writes it.
  var propertyListObject: Any { get }
  /// Reads a value back from what `PropertyListSerialization` produced, or `nil` when `object`
  /// holds another type or a number that does not fit (an `Int8` field holding `300`).
  init?(propertyListObject object: Any)
}

/// A type that `PropertyListSerialization` reads back as itself.
public protocol _PropertyListScalar: _PropertyListRepresentable {}

extension _PropertyListScalar {
  public var propertyListObject: Any { self }
  public init?(propertyListObject object: Any) {
    guard let value = object as? Self else { return nil }
    self = value
  }
}

extension String: _PropertyListScalar {}
extension Bool: _PropertyListScalar {}
extension Date: _PropertyListScalar {}
extension Data: _PropertyListScalar {}

extension Array: _PropertyListRepresentable where Element: _PropertyListRepresentable {
  public var propertyListObject: Any { map(\.propertyListObject) }
  public init?(propertyListObject object: Any) {
    guard let items = object as? [Any] else { return nil }
    var elements: [Element] = []
    elements.reserveCapacity(items.count)
    for item in items {
      guard let element = Element(propertyListObject: item) else { return nil }
      elements.append(element)
    }
    self = elements
  }
}

extension Dictionary: _PropertyListRepresentable
where Key == String, Value: _PropertyListRepresentable {
  public var propertyListObject: Any { mapValues(\.propertyListObject) }
  public init?(propertyListObject object: Any) {
    guard let items = object as? [String: Any] else { return nil }
    var values: [String: Value] = [:]
    values.reserveCapacity(items.count)
    for (key, item) in items {
      guard let value = Value(propertyListObject: item) else { return nil }
      values[key] = value
    }
    self = values
  }
}

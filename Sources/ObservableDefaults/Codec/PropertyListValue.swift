import Foundation

/// A type that a property-list file stores natively: `String`, `Bool`, every integer width,
/// `Float`, `Double`, `Date`, `Data`, `URL`, and arrays and `[String: Value]` dictionaries of them.
///
/// `@ObservableDefaults` stores properties of these types as themselves (the second rule of the
/// codec priority; see ``DefaultsCodec``). The name is the one Apple-platform ObservableDefaults
/// uses, so code that constrains generic helpers with it compiles unchanged.
public protocol UserDefaultsPropertyListValue: Equatable {
  /// The value as Foundation's `PropertyListSerialization` writes it.
  var propertyListObject: Any { get }
  /// Reads a value back from what `PropertyListSerialization` produced, or `nil` when `object`
  /// holds another type or a number that does not fit (an `Int8` field holding `300`).
  init?(propertyListObject object: Any)
}

/// The marker Apple-platform ObservableDefaults used for `Codable` values; any `Codable` type
/// works now, so this is only a name kept for source compatibility.
public typealias CodableUserDefaultsPropertyListValue = Codable

/// A type that `PropertyListSerialization` reads back as itself.
public protocol _PropertyListScalar: UserDefaultsPropertyListValue {}

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

extension Array: UserDefaultsPropertyListValue where Element: UserDefaultsPropertyListValue {
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

extension Dictionary: UserDefaultsPropertyListValue
where Key == String, Value: UserDefaultsPropertyListValue {
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

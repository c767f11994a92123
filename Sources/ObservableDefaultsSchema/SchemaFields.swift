import Foundation
import ObservableDefaultsCore

/// Typed reads of one dictionary of a published schema file, each failure a
/// ``SettingsSchemaError/malformed(path:field:reason:)`` naming the field by its path
/// (`keys[3].choices[0].name`).
struct SchemaFields {
  private let values: [String: Any]
  private let path: String
  /// Where the dictionary lies in the file (`keys[3].`), empty for the root.
  private let location: String

  init(_ values: [String: Any], path: String, at location: String) {
    self.values = values
    self.path = path
    self.location = location
  }

  func error(_ field: String, _ reason: String) -> SettingsSchemaError {
    .malformed(path: path, field: location + field, reason: reason)
  }

  /// The field's value of type `Value` (`String`, `Int`, `Bool`, `Date`, `[String]`), or nil
  /// when it is absent; text longer than `length` characters is refused.
  func optional<Value>(_ field: String, length: Int = SettingsSchema.maximumTextLength)
    throws(SettingsSchemaError) -> Value?
  {
    guard let value = values[field] else { return nil }
    guard let typed = value as? Value, !(value is Bool && Value.self == Int.self) else {
      throw error(field, "holds \(ValueKind(value)), not \(Value.self)")
    }
    // A text of at most `length` UTF-8 bytes has at most as many characters: counted only above.
    for text in (typed as? String).map({ [$0] }) ?? (typed as? [String]) ?? []
    where text.utf8.count > length && text.count > length {
      throw error(field, "longer than \(length) characters")
    }
    return typed
  }

  /// The field's value of type `Value`; a missing field is refused.
  func required<Value>(_ field: String) throws(SettingsSchemaError) -> Value {
    guard let value: Value = try optional(field) else { throw error(field, "is missing") }
    return value
  }

  /// A non-negative integer up to `UInt64.max`.
  func unsignedInteger(_ field: String) throws(SettingsSchemaError) -> UInt64 {
    switch values[field] {
    case let value as Int where value >= 0: return UInt64(value)
    case let value as UInt64: return value
    case nil: throw error(field, "is missing")
    case let value?: throw error(field, "holds \(ValueKind(value)), not a non-negative integer")
    }
  }

  /// A property-list object, or nil when absent.
  func optionalObject(_ field: String) throws(SettingsSchemaError) -> PropertyListObject? {
    guard let value = values[field] else { return nil }
    guard let object = PropertyListObject(value) else {
      throw error(field, "is not a property-list object")
    }
    return object
  }

  func object(_ field: String) throws(SettingsSchemaError) -> PropertyListObject {
    guard let object = try optionalObject(field) else { throw error(field, "is missing") }
    return object
  }

  func optionalDictionary(_ field: String) throws(SettingsSchemaError) -> SchemaFields? {
    guard let dictionary: [String: Any] = try optional(field) else { return nil }
    return SchemaFields(dictionary, path: path, at: location + field + ".")
  }

  func dictionary(_ field: String) throws(SettingsSchemaError) -> SchemaFields {
    guard let fields = try optionalDictionary(field) else { throw error(field, "is missing") }
    return fields
  }

  /// The field's array of dictionaries, or nil when absent.
  func optionalArray(_ field: String) throws(SettingsSchemaError) -> [SchemaFields]? {
    guard let array: [Any] = try optional(field) else { return nil }
    var elements: [SchemaFields] = []
    for (index, element) in array.enumerated() {
      guard let dictionary = element as? [String: Any] else {
        throw error("\(field)[\(index)]", "holds \(ValueKind(element)), not a dictionary")
      }
      elements.append(SchemaFields(dictionary, path: path, at: "\(location)\(field)[\(index)]."))
    }
    return elements
  }

  func array(_ field: String) throws(SettingsSchemaError) -> [SchemaFields] {
    guard let array = try optionalArray(field) else { throw error(field, "is missing") }
    return array
  }
}

/// The property-list type of a value as a word, for messages.
private struct ValueKind: CustomStringConvertible {
  let description: String

  init(_ value: Any) {
    description =
      switch value {
      case is String: "a string"
      case is Bool: "a Boolean"
      case is Int, is UInt64: "an integer"
      case is Double: "a real number"
      case is Date: "a date"
      case is Data: "data"
      case is [Any]: "an array"
      case is [String: Any]: "a dictionary"
      default: "\(type(of: value))"
      }
  }
}

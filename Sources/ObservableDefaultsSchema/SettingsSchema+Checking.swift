import Foundation
import ObservableDefaultsCore

/// A stored value that does not fit the key of a ``SettingsSchema``: what a tool refuses to
/// write, and what the settings editor marks with `!`.
public struct SettingsSchemaMisfit: Error, Sendable, Equatable, CustomStringConvertible {
  /// The stored key, prefix included.
  public let key: String
  /// The schema's type, such as `Int16 (an integer from -32768 to 32767)`.
  public let expected: String
  /// The value's, such as `a string ("loud")`.
  public let found: String

  /// `'<key>' holds <expected> values; the value is <found>`.
  public var description: String { "'\(key)' holds \(expected) values; the value is \(found)" }
}

extension SettingsSchema.Key {
  /// The schema's type of the key in words: the Swift type, then what the stored form admits —
  /// the integer range, or the enumeration's raw values.
  public var expectedValues: String {
    let stored =
      if let choices {
        "one of " + choices.map { PropertyListWords.value($0.value.value) }.joined(separator: ", ")
      } else if let range {
        "an integer from \(range.minimum) to \(range.maximum)"
      } else {
        storedForm.article
      }
    return "\(typeName) (\(stored))"
  }

  /// Why `value`, stored under `key` (the stored key, prefix included), does not fit this key:
  /// its property-list type is not the stored form's, an integer lies outside ``range``, a raw
  /// value is none of ``choices``, or JSON data does not parse; `nil` when it fits.
  public func misfit(of value: Any, key: String) -> SettingsSchemaMisfit? {
    guard !fits(value) else { return nil }
    return SettingsSchemaMisfit(
      key: key, expected: expectedValues, found: PropertyListWords.described(value))
  }

  /// Whether `value` fits (the words of a misfit are made only for one that does not).
  private func fits(_ value: Any) -> Bool {
    guard storedForm.admits(value) else { return false }
    if let choices, !choices.contains(where: { propertyListValuesEqual($0.value.value, value) }) {
      return false
    }
    if let range, let integer = value as? Int, !range.contains(integer) { return false }
    if let range, let integer = value as? UInt64, !range.contains(integer) { return false }
    return true
  }
}

extension SettingsSchema.StoredForm {
  /// The stored form in words, with its article: `a string`, `JSON data`.
  var article: String {
    switch self {
    case .string, .rawString: "a string"
    case .integer, .rawInteger: "an integer"
    case .real, .rawReal: "a real number"
    case .boolean: "a Boolean"
    case .date: "a date"
    case .data: "data"
    case .json: "JSON data"
    case .array: "an array"
    case .dictionary: "a dictionary"
    }
  }

  /// Whether `value` has this form's property-list type (an integer counts as a real number, as
  /// the library reads it; JSON data must parse).
  func admits(_ value: Any) -> Bool {
    let isInteger = (value is Int || value is UInt64) && !(value is Bool)
    switch self {
    case .string, .rawString: return value is String
    case .integer, .rawInteger: return isInteger
    case .real, .rawReal: return isInteger || (value is Double && !(value is Bool))
    case .boolean: return value is Bool
    case .date: return value is Date
    case .data: return value is Data
    case .json:
      guard let data = value as? Data else { return false }
      return (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
    case .array: return value is [Any]
    case .dictionary: return value is [String: Any]
    }
  }
}

/// Property-list values in words, for messages.
enum PropertyListWords {
  /// `a string ("loud")`, `an integer (40000)`, `an array of 3`.
  static func described(_ value: Any) -> String {
    switch value {
    case let array as [Any]: "an array of \(array.count)"
    case let dictionary as [String: Any]: "a dictionary of \(dictionary.count)"
    case is Data: "data of \((value as? Data)?.count ?? 0) bytes"
    case let bool as Bool: "a Boolean (\(bool))"
    case is String: "a string (\(Self.value(value)))"
    case is Date: "a date (\(Self.value(value)))"
    case is Int, is UInt64: "an integer (\(value))"
    case is Double: "a real number (\(value))"
    default: "\(type(of: value))"
    }
  }

  /// A scalar as text: a string quoted, a date in ISO 8601 (`PropertyListDateText`), a number
  /// as written.
  static func value(_ value: Any) -> String {
    switch value {
    case let text as String: "\"\(text)\""
    case let date as Date: PropertyListDateText.text(of: date)
    default: "\(value)"
    }
  }
}

import Foundation
import ObservableDefaultsCore

/// A type the editor edits as a line of text, and how that text becomes a typed value.
struct TextValueFormat: Hashable, Sendable {
  /// The value type under an optional.
  enum Base: Hashable, Sendable {
    case string
    /// A fixed-width integer; `name` is the Swift type name (`Int`, `UInt8`, …).
    case integer(name: String, bitWidth: Int, signed: Bool)
    case double
    case float
    /// A `Date`, typed in ISO 8601 (`2026-11-29T15:30:00Z`).
    case date
    /// A `URL` with a scheme (`https://…`, `file:///…`).
    case url
    /// An array, a dictionary or a `Codable` value, typed as JSON; parsed into a ``JSONValue``.
    case json
    /// The raw value of an enumeration whose cases the schema does not list (not
    /// `CaseIterable`), typed bare (`dark`, `7`); parsed into an ``EnumerationCase``.
    case rawValue
    /// A scalar of a raw property list, parsed by its type's text form (integers up to
    /// `UInt64.max`, ISO 8601 dates with fractions, hex data).
    case propertyList(PropertyListScalarType)
  }

  var base: Base
  /// When set, empty text stores nil.
  var isOptional = false

  /// How to type a value, for the prompt: `, ISO 8601`, ` as JSON`, `, empty = nil`.
  var inputHint: String {
    let form =
      switch base {
      case .date: ", ISO 8601"
      case .json: " as JSON"
      case .rawValue: ", raw value"
      default: ""
      }
    return form + (isOptional ? ", empty = nil" : "")
  }

  /// The Swift type name shown in prompts and messages.
  var typeName: String {
    let name =
      switch base {
      case .string: "String"
      case .integer(let name, _, _): name
      case .double: "Double"
      case .float: "Float"
      case .date: "Date"
      case .url: "URL"
      case .json: "JSON"
      case .rawValue: "raw value"
      case .propertyList(let type): type.rawValue
      }
    return isOptional ? name + "?" : name
  }

  /// The typed value `text` stands for: `String`, the exact integer type, `Double` or `Float`,
  /// wrapped as an optional of that type when ``isOptional`` is set.
  ///
  /// - Throws: ``ValueInputError`` when `text` is not a value of this type.
  func parse(_ text: String) throws(ValueInputError) -> Any {
    if isOptional, text.isEmpty { return Self.none(of: valueType) }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    switch base {
    case .string:
      return wrapped(text)
    case .double:
      return wrapped(try Self.finite(trimmed, as: Double.self, text: text, refusal: refusal))
    case .float:
      return wrapped(try Self.finite(trimmed, as: Float.self, text: text, refusal: refusal))
    case .integer(let name, let bitWidth, let signed):
      return try parseInteger(
        trimmed, as: Self.integerType(name: name, bitWidth: bitWidth, signed: signed))
    case .date:
      // The one date form of the editor and the CLI: ISO 8601 with a fraction of any length,
      // kept as far as a `Date` (a `Double`) holds it.
      guard let date = try? PropertyListScalarType.date.parse(trimmed) as? Date else {
        throw refusal(
          text,
          "not a date that exists, in ISO 8601 (2026-01-31T09:30:00Z) or as a day (2026-01-31)")
      }
      return wrapped(date)
    case .url:
      guard let url = URL(string: trimmed), url.scheme != nil else {
        throw refusal(text, "not a URL with a scheme like https://example.com")
      }
      return wrapped(url)
    case .json:
      return try JSONValue(parsing: text, typeName: typeName)
    case .rawValue:
      return EnumerationCase(rawText: text)
    case .propertyList(let type):
      do {
        return wrapped(try type.parse(text))
      } catch {
        throw refusal(text, error.reason)
      }
    }
  }

  /// The finite `T` of `digits`; a number past `T`'s range (`1e39` for a `Float`) is refused as
  /// such, `inf` and `nan` as not finite, anything else as not a number.
  private static func finite<T: BinaryFloatingPoint & LosslessStringConvertible>(
    _ digits: String, as type: T.Type, text: String,
    refusal: (String, String) -> ValueInputError
  ) throws(ValueInputError) -> T {
    guard let value = T(digits) else { throw refusal(text, "not a number") }
    guard value.isFinite else {
      if digits.contains(where: \.isNumber) {
        throw refusal(text, "outside \(T.self)'s range (±\(T.greatestFiniteMagnitude))")
      }
      throw refusal(text, "not a finite number")
    }
    return value
  }

  /// The Swift type of a non-nil value.
  private var valueType: Any.Type {
    switch base {
    case .string: String.self
    case .double: Double.self
    case .float: Float.self
    case .date: Date.self
    case .url: URL.self
    case .json: JSONValue.self
    case .rawValue: EnumerationCase.self
    case .propertyList: Any.self
    case .integer(let name, let bitWidth, let signed):
      Self.integerType(name: name, bitWidth: bitWidth, signed: signed)
    }
  }

  private static func integerType(name: String, bitWidth: Int, signed: Bool)
    -> any FixedWidthInteger.Type
  {
    switch (bitWidth, signed) {
    case (8, true): Int8.self
    case (16, true): Int16.self
    case (32, true): Int32.self
    case (8, false): UInt8.self
    case (16, false): UInt16.self
    case (32, false): UInt32.self
    case (_, false): name == "UInt64" ? UInt64.self : UInt.self
    default: name == "Int64" ? Int64.self : Int.self
    }
  }

  private func parseInteger<T: FixedWidthInteger>(_ digits: String, as type: T.Type)
    throws(ValueInputError) -> Any
  {
    if let value = T(digits, radix: 10) { return wrapped(value) }
    let isWholeNumber = digits.wholeMatch(of: /[+-]?[0-9]+/) != nil
    throw refusal(
      digits, isWholeNumber ? "out of range \(T.min)…\(T.max)" : "not a whole number")
  }

  private func refusal(_ text: String, _ reason: String) -> ValueInputError {
    ValueInputError(text: text, typeName: typeName, reason: reason)
  }

  private func wrapped<T>(_ value: T) -> Any {
    isOptional ? Optional(value) as Any : value
  }

  private static func none<T>(of type: T.Type) -> Any {
    Optional<T>.none as Any
  }
}

/// Text typed into a value editor that is not a value of the field's type.
struct ValueInputError: Error, Equatable, CustomStringConvertible {
  /// What the user typed.
  let text: String
  /// The field's type name.
  let typeName: String
  /// Why it was refused, e.g. "not a whole number".
  let reason: String

  /// The reason and the expected type first, the text last (it may be long and get cut).
  var description: String { "\(reason) (\(typeName) expected): \"\(text)\"" }
}

import Foundation
import ObservableDefaults
import ObservableDefaultsSchema

/// How a settings property of one ``SettingsValueType`` is shown on one line and edited.
struct ValueFormatting {
  let type: SettingsValueType
  /// The Swift type name as shown (`Int8`, `Theme?`).
  let typeName: String

  /// The kind under an optional, and whether there was one.
  private var base: (type: SettingsValueType, isOptional: Bool) {
    if case .optional(let wrapped) = type { return (wrapped, true) }
    return (type, false)
  }

  /// Whether Space toggles the value and Enter picks it (a non-optional `Bool`).
  var isToggle: Bool { type == .bool }

  /// The value on one line: scalars as text, dates in ISO 8601, data as size and hex, JSON for
  /// arrays, dictionaries and `Codable` values; `nil` for an empty optional.
  ///
  /// - Parameter stored: the value's stored form, when known (the JSON shown for collections).
  func text(of value: Any, stored: Any?) -> String {
    guard let unwrapped = Self.unwrapped(value) else { return "nil" }
    switch base.type {
    case .url: return TextWidth.singleLine((unwrapped as? URL)?.absoluteString ?? "\(unwrapped)")
    case .array, .dictionary, .codable:
      if let raw = Self.rawValueText(of: stored) { return raw }
      if let stored, let json = JSONValue.text(ofStored: stored) {
        return TextWidth.singleLine(json)
      }
      return ValueSummary(unwrapped).text
    default: return ValueSummary(unwrapped).text
    }
  }

  /// How the row is edited: a toggle, a choice of cases, or a line of text in the type's format
  /// (`Data` as hexadecimal bytes, the form a raw suite's data is edited in).
  func editing(value: Any, stored: Any?) -> RowEditing {
    let (kind, isOptional) = base
    let current = Self.unwrapped(value)
    let textBase: TextValueFormat.Base
    switch kind {
    case .bool where !isOptional: return .toggle(current as? Bool ?? false)
    case .enumeration(let cases):
      let choices: [String?] = cases + (isOptional ? [nil] : [])
      let selected = choices.firstIndex(of: stored.map { "\($0)" })
      return .choice(cases: choices, selected: selected)
    case .string: textBase = .string
    case .double: textBase = .double
    case .float: textBase = .float
    case .date: textBase = .date
    case .url: textBase = .url
    case .array, .dictionary, .codable:
      textBase = Self.rawValueText(of: stored) == nil ? .json : .rawValue
    case .integer(let bitWidth, let signed):
      textBase = .integer(
        name: isOptional ? String(typeName.dropLast()) : typeName, bitWidth: bitWidth,
        signed: signed)
    case .data: textBase = .propertyList(.data)
    default: return .readOnly("\(typeName) values cannot be edited here")
    }
    let format = TextValueFormat(base: textBase, isOptional: isOptional)
    return .text(format, text: current.map { editableText(of: $0, stored: stored) } ?? "")
  }

  /// The text the line editor starts with: like ``text(of:stored:)`` but without escapes.
  private func editableText(of value: Any, stored: Any?) -> String {
    switch base.type {
    case .string: return value as? String ?? ""
    case .date: return (value as? Date).flatMap(PropertyListScalarType.text(of:)) ?? ""
    case .url: return (value as? URL)?.absoluteString ?? ""
    case .data: return (value as? Data).map(PropertyListScalarType.hexadecimal) ?? ""
    case .array, .dictionary, .codable:
      return Self.rawValueText(of: stored) ?? stored.flatMap(JSONValue.text(ofStored:)) ?? ""
    default: return ValueSummary(value).text
    }
  }

  /// The raw value of a `Codable` value stored as a string or a number — an enumeration the
  /// schema lists no cases of — as text without quotes; nil for any other stored form.
  private static func rawValueText(of stored: Any?) -> String? {
    switch stored.map(ValueSummary.init) {
    case .string(let text)?: text
    case .integer(let number)?: String(number)
    case .unsignedInteger(let number)?: String(number)
    case .real(let number)?: String(number)
    default: nil
    }
  }

  /// The value inside an optional held as `Any` (nil when empty), or the value itself.
  static func unwrapped(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    return mirror.children.first.map { unwrapped($0.value) } ?? nil
  }
}

package import Foundation
import ObservableDefaultsCore

/// The types of property-list values that are not containers, with their text form: how a value
/// is shown for editing and how typed text becomes a value.
///
/// | Type | Text |
/// |---|---|
/// | string | as it is |
/// | integer | decimal; above `Int.max` up to `UInt64.max` as unsigned (`18446744073709551615`) |
/// | real | a finite decimal number (`0.5`, `1e-3`) |
/// | bool | `true`/`false` (also accepts `yes`/`no`, `1`/`0`) |
/// | date | ISO 8601 in UTC with the seconds' fraction (`2023-01-08T19:59:26.426036Z`) |
/// | data | hexadecimal bytes (`626f6f6b`; `0x`, spaces and `<…>` are accepted) |
package enum PropertyListScalarType: String, CaseIterable, Sendable {
  /// A `String` (`<string>` in XML); its text is the string itself.
  case string
  /// An integer (`<integer>`), read as `Int`, or as `UInt64` above `Int.max`.
  case integer
  /// A floating-point number (`<real>`), read as `Double`.
  case real
  /// A Boolean (`<true/>` or `<false/>`), read as `Bool`.
  case bool
  /// A point in time (`<date>`, UTC), read as `Date`.
  case date
  /// Bytes (`<data>`, Base64 in XML), read as `Data`.
  case data

  /// The type of `value`, or nil for a container or a value that is not a property-list value.
  package init?(of value: Any) {
    switch PropertyListValue.normalized(value) {
    case is String: self = .string
    case is Bool: self = .bool
    case is Int, is UInt64: self = .integer
    case is Double: self = .real
    case is Date: self = .date
    case is Data: self = .data
    default: return nil
    }
  }

  /// The type a type flag of macOS `defaults write` names: `-string`, `-int` / `-integer`,
  /// `-float` / `-real`, `-bool` / `-boolean`, `-date`, `-data`; nil for any other word.
  package init?(flag: String) {
    switch flag {
    case "-string": self = .string
    case "-int", "-integer": self = .integer
    case "-float", "-real": self = .real
    case "-bool", "-boolean": self = .bool
    case "-date": self = .date
    case "-data": self = .data
    default: return nil
    }
  }

  /// The value `text` stands for, in canonical form.
  ///
  /// - Throws: ``PropertyListScalarError`` naming the text and the type.
  package func parse(_ text: String) throws(PropertyListScalarError) -> Any {
    // A string is the text as it is, not trimmed: Foundation's `trimmingCharacters(in:)` took
    // 0.71 M instructions on its first use, a twelfth of a one-shot `write -string`.
    guard self != .string else { return text }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let value: Any? =
      switch self {
      case .string: text
      case .integer: Int(trimmed) ?? UInt64(trimmed).map { $0 as Any }
      case .real: Double(trimmed).flatMap { $0.isFinite ? $0 : nil }
      case .bool: Self.bool(trimmed)
      case .date: PropertyListDateText.date(from: trimmed) ?? Self.dateInDefaultsForm(trimmed)
      case .data: Self.data(fromHex: trimmed)
      }
    guard let value else {
      throw PropertyListScalarError(
        text: text, type: self, isOutOfRange: self == .integer && Self.isWholeNumber(trimmed))
    }
    return PropertyListValue.normalized(value) ?? value
  }

  /// Whether `text` is written as a whole number (digits after an optional sign), whatever its
  /// size.
  private static func isWholeNumber(_ text: String) -> Bool {
    let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
    return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// A date in a form macOS `defaults` prints or accepts besides ISO 8601:
  /// `2023-01-08 19:59:26 +0000` (what `defaults read` prints), or a day `2023-01-08`
  /// (midnight UTC).
  private static func dateInDefaultsForm(_ text: String) -> Date? {
    if let match = text.wholeMatch(
      of: /([0-9]{4}-[0-9]{2}-[0-9]{2}) ([0-9]{2}:[0-9]{2}:[0-9]{2}) ([+-][0-9]{2}):?([0-9]{2})/)
    {
      return PropertyListDateText.date(from: "\(match.1)T\(match.2)\(match.3):\(match.4)")
    }
    if text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil {
      return PropertyListDateText.date(from: text + "T00:00:00Z")
    }
    return nil
  }

  /// The text of a scalar value, which ``parse(_:)`` turns back into an equal value; nil for a
  /// container.
  package static func text(of value: Any) -> String? {
    switch PropertyListValue.normalized(value) {
    case let text as String: text
    case let flag as Bool: flag ? "true" : "false"
    case let number as Int: String(number)
    case let number as UInt64: String(number)
    case let number as Double: "\(number)"
    case let date as Date: PropertyListDateText.text(of: date)
    case let data as Data: hexadecimal(data)
    default: nil
    }
  }

  /// `data` as lowercase hexadecimal digits, two per byte (`626f6f6b`), in one pass.
  package static func hexadecimal(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(unsafeUninitializedCapacity: data.count * 2) { buffer in
      var index = 0
      for byte in data {
        buffer[index] = digits[Int(byte >> 4)]
        buffer[index + 1] = digits[Int(byte & 0x0F)]
        index += 2
      }
      return index
    }
  }

  private static func bool(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "true", "yes", "1": true
    case "false", "no", "0": false
    default: nil
    }
  }

  private static func data(fromHex text: String) -> Data? {
    var hex = Substring(text)
    if hex.hasPrefix("<"), hex.hasSuffix(">") { hex = hex.dropFirst().dropLast() }
    if hex.hasPrefix("0x") || hex.hasPrefix("0X") { hex = hex.dropFirst(2) }
    let digits = Array(hex.filter { !$0.isWhitespace })
    guard digits.count.isMultiple(of: 2) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
      bytes.append(byte)
    }
    return Data(bytes)
  }
}

/// Text that is not a value of the type it was given for.
package struct PropertyListScalarError: Error, Equatable, CustomStringConvertible {
  /// What was typed.
  package let text: String
  /// The type it was meant to be.
  package let type: PropertyListScalarType
  /// Whether the text is a whole number too large (or too small) for an integer of a property
  /// list (-9223372036854775808 … 18446744073709551615).
  package let isOutOfRange: Bool

  /// Creates the error for `text` refused as a `type`, or as out of its range.
  package init(text: String, type: PropertyListScalarType, isOutOfRange: Bool = false) {
    self.text = text
    self.type = type
    self.isOutOfRange = isOutOfRange
  }

  /// E.g. `"twenty" is not an integer (whole number up to 18446744073709551615)`.
  package var description: String { "\"\(text)\" is " + reason }

  /// Why the text was refused, without the text: e.g. `not a bool (use true, false, …)`.
  package var reason: String {
    if isOutOfRange { return "out of range for an integer (\(Int64.min) to \(UInt64.max))" }
    // "data" is a mass noun: "not data", not "not a data".
    let article = type == .integer ? "an " : type == .data ? "" : "a "
    let hint =
      switch type {
      case .string, .real: ""
      case .integer: " (whole number up to \(UInt64.max))"
      case .bool: " (use true, false, yes, no, 1 or 0)"
      case .date: " (ISO 8601, e.g. 2023-01-08T19:59:26.426036Z)"
      case .data: " (hexadecimal bytes, e.g. 0a1b2c)"
      }
    return "not \(article)\(type.rawValue)\(hint)"
  }
}

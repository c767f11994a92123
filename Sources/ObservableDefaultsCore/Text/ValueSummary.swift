package import Foundation

/// A value sorted into the kinds the editor shows and edits, with its type name and one-line text
/// (the editor's rows and the change history's lines).
///
/// Property lists decoded on Linux hold Swift `Bool`s, `NSNumber`s for integers and reals, and
/// `Dictionary<AnyHashable, Any>` for nested dictionaries; values written by Swift code hold
/// plain Swift types. Both read the same here.
package enum ValueSummary {
  case string(String)
  case bool(Bool)
  case integer(Int64)
  case unsignedInteger(UInt64)
  case real(Double)
  case date(Date)
  case data(Data)
  case array([Any])
  case dictionary([String: Any])
  /// Anything else (a Codable blob, a URL object, …), described as Swift prints it.
  case other(Any)

  /// Sorts `value` (a property-list value, or any value a settings property holds).
  package init(_ value: Any) {
    switch value {
    case let value as String: self = .string(value)
    case let value as Bool where type(of: value) == Bool.self: self = .bool(value)
    case let value as Date: self = .date(value)
    case let value as Data: self = .data(value)
    case let value as [Any]: self = .array(value)
    case let value as [String: Any]: self = .dictionary(value)
    case let value as [AnyHashable: Any]: self = .dictionary(Self.textKeyed(value))
    case let value as Double where type(of: value) == Double.self: self = .real(value)
    // Through its shortest decimal text, so 1.2 as a Float reads 1.2 and not 1.2000000476837158.
    case let value as Float where type(of: value) == Float.self:
      self = .real(Double("\(value)") ?? Double(value))
    case let value as any BinaryInteger:
      if let signed = Int64(exactly: value) {
        self = .integer(signed)
      } else {
        self = .unsignedInteger(UInt64(value))
      }
    case let value as NSNumber: self = Self(number: value)
    default: self = .other(value)
    }
  }

  /// `dictionary` with its keys as text. Keys held apart as exact keys (``PropertyListKey``) whose
  /// text is equal as Swift compares strings (they differ only in Unicode normalization) are each
  /// shown by their scalars, non-ASCII ones escaped (`e\u{301}`), so both stay listed.
  private static func textKeyed(_ dictionary: [AnyHashable: Any]) -> [String: Any] {
    let texts = Dictionary(grouping: dictionary.keys) { "\($0.base)" }
    var result: [String: Any] = [:]
    for (text, keys) in texts {
      for key in keys {
        let shown = keys.count == 1 ? text : escapingScalars("\(key.base)")
        result[shown] = dictionary[key]
      }
    }
    return result
  }

  /// `text` with every scalar outside ASCII written `\u{…}` (hexadecimal).
  private static func escapingScalars(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
      scalar.isASCII ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
    }.joined()
  }

  private init(number: NSNumber) {
    switch String(cString: number.objCType) {
    case "c", "B": self = .bool(number.boolValue)
    case "f", "d": self = .real(number.doubleValue)
    case "Q", "L", "I", "S", "C":
      self =
        number.int64Value < 0 ? .unsignedInteger(number.uint64Value) : .integer(number.int64Value)
    default: self = .integer(number.int64Value)
    }
  }

  /// The type name shown in the Type column.
  package var typeName: String {
    switch self {
    case .string: "String"
    case .bool: "Bool"
    case .integer, .unsignedInteger: "Int"
    case .real: "Double"
    case .date: "Date"
    case .data: "Data"
    case .array: "Array"
    case .dictionary: "Dictionary"
    case .other(let value): "\(type(of: value))"
    }
  }

  /// The value on one line, as the Value column shows it.
  package var text: String {
    switch self {
    case .string(let text): TerminalText.escaped(text)
    case .bool(let flag): flag ? "true" : "false"
    case .integer(let number): String(number)
    case .unsignedInteger(let number): String(number)
    case .real(let number): String(number)
    case .date(let date): PropertyListDateText.text(of: date)
    case .data(let data):
      "<\(data.count) bytes\(Self.hexPrefix(of: data))>"
    case .array(let items):
      items.isEmpty ? "( )" : "(\(items.count) item\(items.count == 1 ? "" : "s"))"
    case .dictionary(let entries):
      entries.isEmpty ? "{ }" : "{\(entries.count) key\(entries.count == 1 ? "" : "s")}"
    case .other(let value): TerminalText.escaped(String(describing: value))
    }
  }

  /// `: ` and the first eight bytes in hex (`…` when there are more), or nothing for no bytes.
  private static func hexPrefix(of data: Data) -> String {
    guard !data.isEmpty else { return "" }
    let hex = data.prefix(8).map { String(format: "%02x", $0) }.joined()
    return ": " + hex + (data.count > 8 ? "…" : "")
  }
}

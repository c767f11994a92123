import Foundation
import ObservableDefaultsCore
import SettingsEditor

extension JSONTransfer {
  /// A property-list value as `JSONEncoder` writes it: a date as `{"$date": text}`, data as
  /// `{"$data": Base64}`, the rest as JSON's own strings, numbers, `true`/`false`, arrays and
  /// objects.
  ///
  /// `JSONEncoder` rather than `JSONSerialization`: with sorted keys, `JSONSerialization` on
  /// Linux compares every pair of keys as `AnyHashable` with `NSString`'s numeric,
  /// case-insensitive comparison, 3.7 s for 100,000 keys against 0.23 s (measured
  /// 2026-12-07); it writes every scalar the same (177 values compared, from each ASCII
  /// character to `Int.min` and `5e-324`).
  enum Value: Encodable {
    case string(String)
    case boolean(Bool)
    case integer(Int)
    case unsigned(UInt64)
    case real(Double)
    case array([Value])
    case object([String: Value])

    /// `value`, a canonical property-list value (see `PropertyListValue`) whose dictionaries
    /// are keyed by `String`.
    ///
    /// - Throws: ``VerbError`` `.invalidValue` naming `path` for a value of another type.
    init(_ value: Any, path: [String]) throws(VerbError) {
      switch value {
      case let text as String: self = .string(text)
      case let flag as Bool: self = .boolean(flag)
      case let integer as Int: self = .integer(integer)
      case let integer as UInt64: self = .unsigned(integer)
      case let real as Double: self = .real(real)
      case let date as Date:
        self = .object(["$date": .string(PropertyListScalarType.text(of: date) ?? "")])
      case let data as Data: self = .object(["$data": .string(data.base64EncodedString())])
      case let array as [Any]:
        var items: [Value] = []
        items.reserveCapacity(array.count)
        for (index, item) in array.enumerated() {
          items.append(try Value(item, path: path + ["[\(index)]"]))
        }
        self = .array(items)
      case let dictionary as [String: Any]:
        var members: [String: Value] = [:]
        members.reserveCapacity(dictionary.count)
        for (key, item) in dictionary {
          // The top level is the suite, never a date or data: its keys are written as they are.
          let written =
            dictionary.count == 1 && !path.isEmpty ? JSONMarkerKeys.written(key) : key
          members[written] = try Value(item, path: path + [key])
        }
        self = .object(members)
      default:
        let name = path.map { TerminalText.escaped($0) }.joined(separator: " / ")
        throw .invalid(
          "cannot export as JSON: \(name) holds a \(type(of: value)), which no property list holds")
      }
    }

    func encode(to encoder: any Encoder) throws {
      switch self {
      case .string(let text): try encode(text, to: encoder)
      case .boolean(let flag): try encode(flag, to: encoder)
      case .integer(let integer): try encode(integer, to: encoder)
      case .unsigned(let integer): try encode(integer, to: encoder)
      case .real(let real):
        if let text = JSONIntegralReals.text(of: real, in: encoder) {
          try encode(text, to: encoder)
        } else {
          try encode(real, to: encoder)
        }
      case .array(let items):
        var container = encoder.unkeyedContainer()
        for item in items { try container.encode(item) }
      case .object(let members):
        var container = encoder.container(keyedBy: MemberKey.self)
        for (key, member) in members { try container.encode(member, forKey: MemberKey(key)) }
      }
    }

    private func encode(_ scalar: some Encodable, to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(scalar)
    }
  }

  /// An object member's name.
  private struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

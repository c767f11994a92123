import Foundation

/// The kind of value a settings property holds, for choosing how to show and edit it.
public indirect enum SettingsValueType: Sendable, Equatable {
  /// `String`.
  case string
  /// `Bool`.
  case bool
  /// An integer of `bitWidth` bits (8, 16, 32 or 64), signed or not.
  case integer(bitWidth: Int, signed: Bool)
  /// `Double`.
  case double
  /// `Float`.
  case float
  /// `Date`.
  case date
  /// `Data`.
  case data
  /// `URL`.
  case url
  /// A `CaseIterable` raw-representable type; `cases` are the raw values as text, in order.
  case enumeration(cases: [String])
  /// An `Array` of any element type.
  case array
  /// A `Dictionary` with `String` keys.
  case dictionary
  /// Any other `Codable` value, stored as JSON.
  case codable
  /// An optional of the wrapped kind.
  case optional(SettingsValueType)

  /// The kind of values of type `type`.
  public init(_ type: Any.Type) {
    if let optional = type as? any OptionalType.Type {
      self = .optional(SettingsValueType(optional.wrappedType))
    } else if let integer = type as? any FixedWidthInteger.Type {
      self = .integer(bitWidth: integer.bitWidth, signed: integer.isSigned)
    } else if let enumeration = type as? any (CaseIterable & RawRepresentable).Type {
      self = .enumeration(cases: enumeration.rawValueTexts)
    } else if let kind = Self.scalars.first(where: { $0.type == type })?.kind {
      self = kind
    } else if type is any ArrayType.Type {
      self = .array
    } else if type is any DictionaryType.Type {
      self = .dictionary
    } else {
      self = .codable
    }
  }

  private static let scalars: [(type: Any.Type, kind: SettingsValueType)] = [
    (String.self, .string), (Bool.self, .bool), (Double.self, .double), (Float.self, .float),
    (Date.self, .date), (Data.self, .data), (URL.self, .url),
  ]
}

/// Lets the schema and the codecs see through `Optional` at run time.
protocol OptionalType {
  /// The type of the wrapped value.
  static var wrappedType: Any.Type { get }
  /// Whether the optional is `nil`.
  var isNone: Bool { get }
  /// `nil` of this optional type.
  static var none: Self { get }
}
extension Optional: OptionalType {
  static var wrappedType: Any.Type { Wrapped.self }
  var isNone: Bool { self == nil }
}

/// Marks `Array` at run time.
protocol ArrayType {}
extension Array: ArrayType {}

/// Marks `Dictionary` at run time.
protocol DictionaryType {}
extension Dictionary: DictionaryType {}

extension CaseIterable where Self: RawRepresentable {
  fileprivate static var rawValueTexts: [String] { allCases.map { "\($0.rawValue)" } }
}

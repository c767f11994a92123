import Foundation
internal import ObservableDefaultsSchema

extension SettingsValueType {
  /// The kind of values of type `type`.
  init(_ type: Any.Type) {
    // The common scalars first, by identity: each cast below that fails scans every conformance
    // record of the program the first time it is asked for a type.
    if let kind = Self.scalars.first(where: { $0.type == type })?.kind {
      self = kind
    } else if let optional = type as? any OptionalType.Type {
      self = .optional(SettingsValueType(optional.wrappedType))
    } else if let integer = type as? any FixedWidthInteger.Type {
      self = .integer(bitWidth: integer.bitWidth, signed: integer.isSigned)
    } else if let enumeration = type as? any (CaseIterable & RawRepresentable).Type {
      self = .enumeration(cases: enumeration.rawValueTexts)
    } else if type is any ArrayType.Type {
      self = .array
    } else if type is any DictionaryType.Type {
      self = .dictionary
    } else {
      self = .codable
    }
  }

  private static let scalars: [(type: Any.Type, kind: SettingsValueType)] = [
    (String.self, .string), (Bool.self, .bool),
    (Int.self, .integer(bitWidth: Int.bitWidth, signed: true)),
    (Double.self, .double), (Float.self, .float), (Date.self, .date), (Data.self, .data),
    (URL.self, .url),
  ]
}

/// Lets the property table and the codecs see through `Optional` at run time.
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

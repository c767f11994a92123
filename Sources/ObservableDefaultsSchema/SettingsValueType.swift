/// The kind of value a settings property holds, for choosing how to show and edit it: the `kind`
/// and `optional` fields of a published schema's key (``SettingsSchema/Key/valueType``), and what
/// the runtime tells tools of each property of a settings object.
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
}

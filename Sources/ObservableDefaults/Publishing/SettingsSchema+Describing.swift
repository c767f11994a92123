import Foundation
internal import ObservableDefaultsSchema

extension SettingsSchema.Key {
  /// Describes a persisted property of type `Value` from what the macros know of it.
  ///
  /// - Parameters:
  ///   - documentation: The documentation comment, paragraphs separated by a blank line.
  ///   - defaultValue: The declaration-time default.
  ///   - codec: How values are stored; gives the default's and the cases' stored forms.
  init<Value>(
    name: String, key: String, previousKeys: [String], documentation: String?,
    defaultValue: Value, codec: DefaultsCodec<Value>
  ) {
    let valueType = SettingsValueType(Value.self)
    let wrapped = Self.unwrapped(Value.self)
    let paragraphs = DocumentationText(documentation)
    self.init(
      name: name, key: key, previousKeys: previousKeys,
      typeName: nameOfType(Value.self), valueType: valueType,
      storedForm: Self.storedForm(of: wrapped, valueType: valueType),
      defaultValue: codec.encode(defaultValue).flatMap(PropertyListObject.init),
      summary: paragraphs.summary, discussion: paragraphs.discussion,
      choices: Self.choices(of: wrapped), range: Self.range(of: wrapped))
  }

  /// The type inside any number of optionals.
  private static func unwrapped(_ type: Any.Type) -> Any.Type {
    (type as? any OptionalType.Type).map { unwrapped($0.wrappedType) } ?? type
  }

  /// The stored form by the codec's rules (see ``DefaultsCodec``): a raw value first, then a
  /// property-list value itself, else JSON.
  private static func storedForm(of type: Any.Type, valueType: SettingsValueType)
    -> SettingsSchema.StoredForm
  {
    if let raw = type as? any RawRepresentable.Type {
      switch rawForm(of: raw) {
      case .string?: return .rawString
      case .integer?: return .rawInteger
      case .real?: return .rawReal
      default: break
      }
    }
    var base = valueType
    if case .optional(let wrapped) = base { base = wrapped }
    switch base {
    case .string: return .string
    case .bool: return .boolean
    case .integer: return .integer
    case .double, .float: return .real
    case .date: return .date
    case .data: return .data
    case .array: return .array
    case .dictionary: return .dictionary
    case .url, .codable, .enumeration, .optional: return .json
    }
  }

  /// The property-list form of a raw value type: string, integer or real (nil for others).
  private static func rawForm<Raw: RawRepresentable>(of type: Raw.Type) -> SettingsSchema
    .StoredForm?
  {
    switch Raw.RawValue.self {
    case is String.Type: .string
    case is any FixedWidthInteger.Type: .integer
    case is Double.Type, is Float.Type: .real
    default: nil
    }
  }

  /// The cases of a `CaseIterable` raw-representable type with their raw values.
  private static func choices(of type: Any.Type) -> [SettingsSchema.Choice]? {
    guard let enumeration = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
    return enumeration.schemaChoices
  }

  /// The bounds of a fixed-width integer type.
  private static func range(of type: Any.Type) -> SettingsSchema.IntegerRange? {
    guard let integer = type as? any FixedWidthInteger.Type else { return nil }
    return integer.schemaRange
  }
}

extension CaseIterable where Self: RawRepresentable {
  fileprivate static var schemaChoices: [SettingsSchema.Choice]? {
    var choices: [SettingsSchema.Choice] = []
    for value in allCases {
      guard let raw = PropertyListObject(value.rawValue) else { return nil }
      choices.append(SettingsSchema.Choice(name: "\(value)", value: raw))
    }
    return choices
  }
}

extension FixedWidthInteger {
  fileprivate static var schemaRange: SettingsSchema.IntegerRange {
    SettingsSchema.IntegerRange(
      minimum: Int64(truncatingIfNeeded: min), maximum: UInt64(truncatingIfNeeded: max))
  }
}

/// A documentation comment split as DocC splits it: the summary (first paragraph) and the
/// discussion (the rest).
struct DocumentationText {
  /// The first paragraph, or nil.
  let summary: String?
  /// The paragraphs after the first, separated by a blank line, or nil.
  let discussion: String?

  init(_ text: String?) {
    guard let text, !text.isEmpty else {
      (summary, discussion) = (nil, nil)
      return
    }
    guard let end = text.range(of: "\n\n") else {
      (summary, discussion) = (text, nil)
      return
    }
    summary = String(text[..<end.lowerBound])
    let rest = String(text[end.upperBound...])
    discussion = rest.isEmpty ? nil : rest
  }
}

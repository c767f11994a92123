import ObservableDefaultsCore

extension RowEditing {
  /// How a scalar of a raw property list (a suite's or a file's) is edited: a `Bool` toggles;
  /// strings, integers (up to `UInt64.max`), reals, dates (ISO 8601 with fractions) and data
  /// (hex) open a line editor that checks the text against the value's type. Nil for a
  /// dictionary or an array.
  static func propertyListScalar(_ value: Any) -> RowEditing? {
    if let flag = value as? Bool { return .toggle(flag) }
    guard let type = PropertyListScalarType(of: value),
      let text = PropertyListScalarType.text(of: value)
    else { return nil }
    return .text(TextValueFormat(base: .propertyList(type)), text: text)
  }
}

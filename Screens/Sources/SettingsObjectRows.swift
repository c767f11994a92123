import ObservableDefaults

/// The properties of one settings object as rows, read through the object's observable getters:
/// a change to one property (in this process or written by another) redraws that row only.
@MainActor
final class SettingsObjectRows: RowSource {
  private let settings: AnySettings

  init(_ settings: AnySettings) {
    self.settings = settings
  }

  var title: String { settings.typeName }

  var location: String {
    let store = settings.store
    switch store.kind {
    case .cloud: return "cloud key-value store"
    case .userDefaults: return store.fileURL?.path ?? "UserDefaults"
    }
  }

  let kind = RowSourceKind.object

  var rowCount: Int { settings.properties.count }

  func row(at index: Int) -> PropertyRow {
    let property = settings.properties[index]
    let value = property.value()
    let typeName = Self.displayName(of: property.typeName)
    return PropertyRow(
      name: property.name, key: property.storageKey, typeName: typeName,
      value: Self.text(of: value), isModified: !property.isDefault,
      defaultValue: property.defaultValue().map(Self.text(of:)), summary: property.summary,
      editing: Self.editing(property.valueType, typeName: typeName, value: value))
  }

  func setValue(_ value: Any, at index: Int) throws {
    try settings.properties[index].setValue(value)
  }

  /// `Optional<String>` as `String?`, the way it was written.
  static func displayName(of typeName: String) -> String {
    guard typeName.hasPrefix("Optional<"), typeName.hasSuffix(">") else { return typeName }
    return displayName(of: String(typeName.dropFirst("Optional<".count).dropLast())) + "?"
  }

  /// A value on one line; `nil` for an empty optional.
  private static func text(of value: Any) -> String {
    unwrapped(value).map { ValueSummary($0).text } ?? "nil"
  }

  /// The value inside an optional held as `Any` (nil when empty), or the value itself.
  private static func unwrapped(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    return mirror.children.first.map { unwrapped($0.value) } ?? nil
  }

  private static func editing(_ valueType: SettingsValueType, typeName: String, value: Any) -> RowEditing {
    var isOptional = false
    var base = valueType
    if case .optional(let wrapped) = valueType {
      isOptional = true
      base = wrapped
    }
    let format: TextValueFormat.Base
    switch base {
    case .string: format = .string
    case .double: format = .double
    case .float: format = .float
    case .integer(let bitWidth, let signed):
      format = .integer(name: isOptional ? String(typeName.dropLast()) : typeName, bitWidth: bitWidth, signed: signed)
    case .bool where !isOptional:
      return .toggle(value as? Bool ?? false)
    default:
      return .readOnly("\(typeName) values get their editor in a later version")
    }
    let current = unwrapped(value).map { ValueSummary($0).text } ?? ""
    return .text(TextValueFormat(base: format, isOptional: isOptional), text: current)
  }
}

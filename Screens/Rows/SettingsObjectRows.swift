import Foundation
import ObservableDefaults
import ObservableDefaultsSchema

/// The properties of one settings object as rows, read through the object's observable getters:
/// a change to one property (in this process or written by another) redraws that row only.
///
/// Everything comes from the object's schema (``AnySettings``): values that are not plain
/// scalars go through their stored form (``AnySettingsProperty/propertyListValue()``), so no
/// code here knows a settings class.
@MainActor
final class SettingsObjectRows: ReloadableRowSource {
  let settings: AnySettings
  var reportChange: ((SeenChange) -> Void)?
  /// Storage key → the stored value last seen (`.some(nil)`: not stored), for the change log.
  var storedValues: [String: Any?] = [:]
  var changeObservation: ObservationToken?
  /// Set while the editor writes the object.
  let writing = EditorWriting()

  init(_ settings: AnySettings) {
    self.settings = settings
  }

  var title: String { settings.typeName }

  var location: String {
    let store = settings.store
    switch store.kind {
    case .cloud:
      // A sync engine's server and account (the embedded and in-memory containers have none).
      guard let cloud = store.store as? NSUbiquitousKeyValueStore,
        case let status = cloud.syncStatus, ["etcd", "nats"].contains(status.backend)
      else {
        return "cloud key-value store"
      }
      return
        "cloud key-value store on \(status.backend) \(status.endpoint ?? "(no server yet)"), account \(status.account)"
    case .userDefaults: return store.fileURL?.path ?? "UserDefaults"
    }
  }

  var kind: RowSourceKind { settings.store.kind == .cloud ? .cloud : .object }

  /// The object's suite, when its file lies in the preferences folder: not listed again as
  /// raw keys.
  var suiteName: String? { settings.store.suiteName }

  /// The cloud store's sync state (``CloudStoreState``).
  var state: String? {
    (settings.store.store as? NSUbiquitousKeyValueStore).map(CloudStoreState.text)
  }

  var suiteFile: PropertyListDefaults? { settings.store.store as? PropertyListDefaults }

  var hasReadValues: Bool {
    (settings.store.store as? PropertyListDefaults)?.hasReadValues ?? true
  }

  var rowCount: Int { settings.properties.count }

  func row(at index: Int) -> PropertyRow {
    let property = settings.properties[index]
    let value = property.value()
    let typeName = Self.displayName(of: property.typeName)
    let format = ValueFormatting(type: property.valueType, typeName: typeName)
    return PropertyRow(
      name: property.name, key: property.storageKey, typeName: typeName,
      value: format.text(of: value, stored: property.propertyListValue()),
      isModified: !property.isDefault,
      defaultValue: property.defaultValue().map { format.text(of: $0, stored: nil) },
      summary: property.summary,
      editing: property.key == nil && !format.isToggle
        ? .readOnly("not stored (@ObservableOnly)")
        : format.editing(value: value, stored: property.propertyListValue()),
      problem: problem(of: property, typeName: typeName),
      migration: property.pendingMigration
    ).placed(
      in: property.storageKey.flatMap {
        (settings.store.store as? PropertyListDefaults)?.layer(forKey: $0)
      })
  }

  /// Why the stored form of `property` is not shown: the cloud's record of it was refused, or it
  /// does not decode as its type.
  private func problem(of property: AnySettingsProperty, typeName: String) -> String? {
    if let cloud = settings.store.store as? NSUbiquitousKeyValueStore,
      let key = property.storageKey, let refusal = cloud.refusal(forKey: key)
    {
      return "undecodable in the cloud: \(refusal)"
    }
    guard let stored = property.storedObject(), !property.decodes(stored) else { return nil }
    let summary = ValueSummary(stored)
    let text = if case .string(let string) = summary { "\"\(string)\"" } else { summary.text }
    return "stored \(text) (\(summary.typeName)) does not decode as \(typeName)"
  }

  func setValue(_ value: Any, at index: Int) throws {
    try writing.during { try write(value, at: index) }
  }

  private func write(_ value: Any, at index: Int) throws {
    let property = settings.properties[index]
    switch value {
    case let choice as EnumerationCase:
      try Self.setFirstDecoding(Self.rawValueForms(choice.rawText), to: property)
    case let json as JSONValue:
      // An array or dictionary of property-list values is stored as itself, anything else
      // `Codable` as JSON bytes: the codec reads whichever fits.
      try Self.setFirstDecoding(
        [json.object is NSNull ? nil : json.object, Data(json.text.utf8)], to: property)
    default:
      try property.setValue(value)
    }
  }

  func resetValue(at index: Int) throws {
    try writing.during { try settings.properties[index].resetValue() }
  }

  /// Writes what is pending and reads the object's store again (its suite file, or the cloud
  /// container); the properties another writer changed redraw.
  ///
  /// - Throws: The store's last error when it could not be written or read.
  func reload() throws {
    let store = settings.store.store
    guard !store.synchronize() else { return }
    let error: (any Error)? =
      (store as? PropertyListDefaults)?.lastError
      ?? (store as? NSUbiquitousKeyValueStore)?.lastError
    throw error ?? RowSourceError.unsupported("\(title)'s store could not be written or read")
  }

  func snapshot(at index: Int) -> RowSnapshot? {
    let property = settings.properties[index]
    return property.isDefault ? .defaultValue : .stored(property.propertyListValue())
  }

  func restore(_ snapshot: RowSnapshot, at index: Int) throws {
    switch snapshot {
    case .defaultValue: try resetValue(at: index)
    case .stored(let object):
      try writing.during { try settings.properties[index].setValue(fromPropertyList: object) }
    case .storedUnder(let key, _):
      throw RowSourceError.unsupported("\(title) has no raw key \(key) to restore")
    }
  }

  /// A raw value typed as text, as text and as the integer or number it reads as (for an
  /// `Int` enumeration); `nil` for the empty optional.
  private static func rawValueForms(_ text: String?) -> [Any?] {
    guard let text else { return [nil] }
    var forms: [Any?] = [text]
    if let integer = Int(text) { forms.append(integer) }
    if let number = Double(text) { forms.append(number) }
    return forms
  }

  /// Stores the first of `forms` the property's codec reads; throws what the last one threw.
  private static func setFirstDecoding(_ forms: [Any?], to property: AnySettingsProperty) throws {
    for form in forms.dropLast() {
      if (try? property.setValue(fromPropertyList: form)) != nil { return }
    }
    try property.setValue(fromPropertyList: forms.last ?? nil)
  }

  /// A type name the way it is usually written: `Optional<String>` as `String?`,
  /// `Array<Int>` as `[Int]`, `Dictionary<String, Int>` as `[String: Int]`.
  static func displayName(of typeName: String) -> String {
    func inner(_ prefix: String) -> String? {
      guard typeName.hasPrefix(prefix + "<"), typeName.hasSuffix(">") else { return nil }
      return String(typeName.dropFirst(prefix.count + 1).dropLast())
    }
    if let wrapped = inner("Optional") { return displayName(of: wrapped) + "?" }
    if let element = inner("Array") { return "[\(displayName(of: element))]" }
    if let pair = inner("Dictionary"), let comma = pair.firstIndex(of: ",") {
      let value = pair[pair.index(after: comma)...].trimmingCharacters(in: .whitespaces)
      return "[\(displayName(of: String(pair[..<comma]))): \(displayName(of: value))]"
    }
    return typeName
  }
}

import Foundation
import ObservableDefaultsCore
import Observation

/// The top-level keys of a suite or a property-list file as rows, in key order, observable key
/// by key: a new value for one key redraws that key's row only.
///
/// A suite is editable and follows writes from other processes; a file opened by path is
/// read-only and shown as it was when opened.
@MainActor
final class PropertyListDomain: RowSource, LiveRowSource, Observable {
  let title: String
  let location: String
  let kind: RowSourceKind
  private let registrar = ObservationRegistrar()
  /// The suite the values come from; nil for a read-only file.
  private let defaults: PropertyListDefaults?
  private var observation: DefaultsObservation?
  private var values: [String: Any]
  private var keys: [String]

  /// Shows the suite `name` of the preferences folder, editable.
  init(suite name: String) {
    let url = PreferencesDirectory.fileURL(forSuite: name)
    let defaults = PropertyListDefaults(fileURL: url)
    self.defaults = defaults
    title = name
    location = url.path
    kind = .suite
    values = defaults.persistentDomain(forName: name) ?? [:]
    keys = values.keys.sorted()
  }

  /// Shows the property-list file at `url` (XML or binary), read-only.
  ///
  /// - Throws: ``PropertyListError`` when the file is missing, unreadable or not a property list.
  init(file url: URL) throws {
    guard let document = try PropertyListFile(url: url).read() else {
      throw PropertyListError(file: url, kind: .unreadable, reason: "no such file")
    }
    defaults = nil
    title = url.lastPathComponent
    location = url.path
    kind = .file
    values = document.values
    keys = values.keys.sorted()
  }

  var rowCount: Int {
    registrar.access(self, keyPath: \.keys)
    return keys.count
  }

  func row(at index: Int) -> PropertyRow {
    let key = keys[index]
    registrar.access(self, keyPath: \.[observing: key])
    let value = ValueSummary(values[key] as Any)
    return PropertyRow(name: key, key: key, typeName: value.typeName, value: value.text, editing: editing(for: value))
  }

  func setValue(_ value: Any, at index: Int) throws {
    let key = keys[index]
    guard let defaults else { throw PropertyListError(file: URL(fileURLWithPath: location), kind: .unwritable, reason: "opened read-only") }
    try defaults.write(value, forKey: key, excluding: observation)
    reload([key])
  }

  func startWatching(post: @escaping MainJobPoster) {
    guard let defaults, observation == nil else { return }
    observation = defaults.observe { [weak self] change in
      post { self?.reload(change.keys) }
    }
  }

  /// Re-reads `changedKeys` from the suite and invalidates the rows whose value differs, or the
  /// whole list when keys appeared or disappeared.
  private func reload(_ changedKeys: Set<String>) {
    guard let defaults else { return }
    var keysChanged = false
    for key in changedKeys {
      let value = defaults.persistentValue(forKey: key)
      guard !propertyListValuesEqual(values[key], value) else { continue }
      keysChanged = keysChanged || (values[key] == nil) != (value == nil)
      registrar.withMutation(of: self, keyPath: \.[observing: key]) { values[key] = value }
    }
    if keysChanged {
      registrar.withMutation(of: self, keyPath: \.keys) { keys = values.keys.sorted() }
    }
  }

  /// The observation identity of one key's value (the value itself lives in `values`).
  private subscript(observing key: String) -> String { key }

  private func editing(for value: ValueSummary) -> RowEditing {
    guard defaults != nil else { return .readOnly("files opened by path are read-only") }
    switch value {
    case .string(let text): return .text(TextValueFormat(base: .string), text: text)
    case .bool(let flag): return .toggle(flag)
    case .integer(let number): return .text(TextValueFormat(base: .integer(name: "Int", bitWidth: 64, signed: true)), text: String(number))
    case .real(let number): return .text(TextValueFormat(base: .double), text: String(number))
    default: return .readOnly("\(value.typeName) values are not editable yet")
    }
  }
}

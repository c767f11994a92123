import Foundation
import ObservableDefaultsCore
import Observation

/// The top-level keys of a suite as rows, in key order, observable key by key: a new value for
/// one key redraws that key's row only. The suite is editable and follows writes from other
/// processes. (Files opened by path are ``PropertyListFileDomain``s.)
@MainActor
final class PropertyListDomain: RowSource, LiveRowSource, ReloadableRowSource, Observable {
  let title: String
  let location: String
  let kind: RowSourceKind
  private let registrar = ObservationRegistrar()
  /// The suite the values come from.
  private let defaults: PropertyListDefaults
  private var observation: DefaultsObservation?
  private var values: [String: Any]
  private var keys: [String]

  /// Shows the suite `name` of the preferences folder `folder`, editable.
  init(suite name: String, folder: URL = PreferencesDirectory.url) {
    let url = folder.appendingPathComponent(name + ".plist", isDirectory: false)
    let defaults = PropertyListDefaults(fileURL: url)
    self.defaults = defaults
    title = name
    location = url.path
    kind = .suite
    // The stored values only: not the registered defaults nor the command line's.
    values = defaults.persistentValues
    keys = values.keys.sorted()
  }

  var rowCount: Int {
    registrar.access(self, keyPath: \.keys)
    return keys.count
  }

  func row(at index: Int) -> PropertyRow {
    let key = keys[index]
    registrar.access(self, keyPath: \.[observing: key])
    let value = values[key] as Any
    let summary = ValueSummary(value)
    return PropertyRow(
      name: key, key: key, typeName: summary.typeName, value: summary.text,
      editing: editing(for: value))
  }

  var problem: String? {
    guard let error = defaults.lastError else { return nil }
    // The header already names the file; the rows pane is narrow.
    guard error.kind == .malformed else { return error.description }
    return "not a valid property list, left unchanged: \(error.reason)"
  }

  func setValue(_ value: Any, at index: Int) throws {
    let key = keys[index]
    try defaults.write(value, forKey: key, excluding: observation)
    reload([key])
  }

  var hasDefaults: Bool { false }

  /// Removes the key from the suite (there is no default to go back to: the row goes away).
  func resetValue(at index: Int) throws {
    let key = keys[index]
    try defaults.write(nil, forKey: key, excluding: observation)
    reload([key])
  }

  /// The key and its stored value, so undo finds the key even after rows moved.
  func snapshot(at index: Int) -> RowSnapshot? {
    let key = keys[index]
    return .storedUnder(key: key, value: values[key])
  }

  /// Writes the value of a ``snapshot(at:)`` back under its key (or removes the key).
  func restore(_ snapshot: RowSnapshot, at index: Int) throws {
    guard case .storedUnder(let key, let value) = snapshot else {
      throw RowSourceError.unsupported("\(title) restores only the values it took")
    }
    try defaults.write(value, forKey: key, excluding: observation)
    reload([key])
  }

  func startWatching(post: @escaping MainJobPoster) {
    guard observation == nil else { return }
    observation = defaults.observe { [weak self] change in
      post { self?.reload(change.keys) }
    }
  }

  /// Reads the suite's file again (after writing what is pending) and shows what changed.
  ///
  /// - Throws: The suite's ``PropertyListError`` when the file cannot be written or read.
  func reload() throws {
    if !defaults.synchronize(), let error = defaults.lastError { throw error }
    reload(Set(values.keys).union(defaults.persistentValues.keys))
  }

  /// Re-reads `changedKeys` from the suite and invalidates the rows whose value differs, or the
  /// whole list when keys appeared or disappeared.
  private func reload(_ changedKeys: Set<String>) {
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

  private func editing(for value: Any) -> RowEditing {
    .propertyListScalar(value)
      ?? .readOnly("\(ValueSummary(value).typeName) values are edited in a property-list file")
  }
}

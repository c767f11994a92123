import Foundation
import ObservableDefaultsCore
import Observation

/// The keys of a suite as a tree of rows, in key order, as files opened by path show theirs
/// (``PropertyListTreeRows``): dictionaries and arrays open with Enter. Observable path by path:
/// a new value for one key redraws that key's rows only. The suite is editable (a nested edit
/// writes its top-level key) and follows writes from other processes.
@MainActor
final class SuiteRows: ExpandableRowSource, LiveRowSource, ReloadableRowSource,
  KeyEditingRowSource, ChangeReportingSource, Observable
{
  let title: String
  let location: String
  let kind: RowSourceKind
  private let registrar = ObservationRegistrar()
  /// The suite the values come from.
  private let defaults: PropertyListDefaults
  private var observation: ObservationToken?
  /// The stored values, by exact key (keys that differ only in Unicode normalization are two
  /// rows, as in the file).
  private var values: [PropertyListKey: Any]
  private var tree: PropertyListTreeRows
  var reportChange: ((SeenChange) -> Void)?

  /// The suite the values come from.
  let suiteName: String?
  /// The keys left out: those the suite's schemas list, shown by their rows.
  let describedKeys: Set<String>

  /// Shows the suite `name` of the preferences folder `folder`, editable; the keys in
  /// `describedKeys` are left out (a suite's "other keys", beside the rows of its schemas), and
  /// `title` names it in the objects pane (the suite's name by default). A key an administrator
  /// made mandatory in a folder of `systemFolders` is shown locked.
  init(
    suite name: String, folder: URL = PreferencesDirectory.url, title: String? = nil,
    describedKeys: Set<String> = [], systemFolders: [URL] = PreferencesDirectory.systemFolders
  ) {
    let url = folder.appendingPathComponent(name + ".plist", isDirectory: false)
    let defaults = PropertyListDefaults(fileURL: url, suite: name, systemFolders: systemFolders)
    self.defaults = defaults
    self.title = title ?? name
    suiteName = name
    self.describedKeys = describedKeys
    location = url.path
    kind = .suite
    // The stored values only: not the registered defaults nor the command line's.
    values = defaults.exactPersistentValues.filter { !describedKeys.contains($0.key.string) }
    tree = PropertyListTreeRows(root: values)
  }

  /// Whether the suite holds a key that `describedKeys` does not list (the "other keys" of a
  /// suite its schemas describe).
  var isEmpty: Bool { values.isEmpty }

  var rowCount: Int {
    registrar.access(self, keyPath: \.tree)
    return tree.lines.count
  }

  /// How many rows were built (``row(at:)`` calls): a first paint builds the visible ones only.
  private(set) var rowsBuilt = 0

  /// How many top-level keys were put in place in the lines since the first layout
  /// (``PropertyListTreeLines/keysPlaced``).
  var keysPlaced: Int { tree.lines.keysPlaced }

  /// How many values were read from the suite after the first paint: those of the keys each
  /// change names.
  private(set) var valuesRead = 0

  func row(at index: Int) -> PropertyRow {
    rowsBuilt += 1
    let path = tree.lines[index].path
    registrar.access(self, keyPath: \.[observing: path])
    let row = tree.row(at: index, in: values)
    guard case .key(let key)? = path.first, defaults.objectIsForced(forKey: key) else { return row }
    return row.placed(in: defaults.layer(forKey: key))
  }

  func rowMatches(_ pattern: SearchPattern, at index: Int) -> Bool {
    tree.matches(pattern, at: index, in: values)
  }

  var problem: String? {
    // The header already names the file; the rows pane is narrow.
    defaults.unreadableReason ?? defaults.lastError?.description
  }

  var suiteFile: PropertyListDefaults? { defaults }

  var hasReadValues: Bool { defaults.hasReadValues }

  func toggleExpansion(at index: Int) -> Bool {
    guard tree.toggle(at: index, in: values) else { return false }
    layOut()
    return true
  }

  /// Stores the scalar `value` at row `index`; a nested one writes its top-level key's value
  /// with the edited copy.
  func setValue(_ value: Any, at index: Int) throws {
    let (key, newValue) = try PropertyListTreeRows.editing(
      value, at: tree.lines[index].path, in: values)
    try defaults.write(newValue, forKey: key.string, excluding: observation)
    reload([key])
  }

  var storedValues: [PropertyListKey: Any] { values }

  func path(at index: Int) -> PropertyListPath { tree.lines[index].path }

  /// Writes each key to the suite (one write a key) and redraws them.
  func store(_ changes: [PropertyListKey: Any?]) throws {
    for (key, value) in changes {
      try defaults.write(value, forKey: key.string, excluding: observation)
    }
    reload(Set(changes.keys))
  }

  func startWatching(post: @escaping MainJobPoster) {
    guard observation == nil else { return }
    observation = defaults.observe { [weak self] change in
      post { self?.reload(change.exactKeys, writer: change.writer) }
    }
  }

  /// Reads the suite's file again (after writing what is pending) and shows what changed.
  ///
  /// - Throws: The suite's ``PropertyListError`` when the file cannot be written or read.
  func reload() throws {
    if !defaults.synchronize(), let error = defaults.lastError { throw error }
    reload(Set(values.keys).union(defaults.exactPersistentValues.keys), writer: .unknown)
  }

  /// Re-reads `changedKeys` from the suite and redraws the rows whose value differs; lays the
  /// list out again only when keys appeared or disappeared or an open container changed; reports
  /// the changes as made by `writer` (nil: this editor).
  private func reload(_ changedKeys: Set<PropertyListKey>, writer: DefaultsChange.Writer? = nil) {
    let changedKeys = changedKeys.filter { !describedKeys.contains($0.string) }
    // The log keeps the last ``ChangeLog/capacity`` changes: a larger burst (a whole file
    // replaced) reports that many of its keys.
    let before =
      reportChange == nil
      ? [:]
      : changedKeys.prefix(ChangeLog.capacity).reduce(into: [String: Any?]()) {
        $0[$1.string] = values[$1]
      }
    defer {
      reportChanges(
        before, now: { self.values[PropertyListKey($0)] }, writer: writer, store: defaults)
    }
    let (lines, paths) = tree.taking(
      changedKeys,
      from: {
        self.valuesRead += 1
        return self.defaults.persistentValue(forKey: $0.string)
      }, into: &values)
    if let lines { registrar.withMutation(of: self, keyPath: \.tree) { tree.lines = lines } }
    for path in paths {
      registrar.withMutation(of: self, keyPath: \.[observing: path]) {}
    }
  }

  /// Lays the lines out again, telling observers only when they changed.
  private func layOut() {
    guard let lines = tree.laidOut(values) else { return }
    registrar.withMutation(of: self, keyPath: \.tree) { tree.lines = lines }
  }

  /// The observation identity of the value at one path (the value itself lives in `values`).
  private subscript(observing path: PropertyListPath) -> PropertyListPath { path }
}

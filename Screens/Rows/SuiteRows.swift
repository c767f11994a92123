import Foundation
import ObservableDefaultsCore
import Observation
import Synchronization

/// The keys of a suite as a tree of rows, in key order, as files opened by path show theirs
/// (``PropertyListTreeRows``): dictionaries and arrays open with Enter. Observable path by path:
/// a new value for one key redraws that key's rows only. The suite is editable (a nested edit
/// writes its top-level key) and follows writes from other processes.
///
/// The values are read from the suite itself (its storage keeps them): the rows keep the keys
/// shown, in order, and no copy of the values. Each change the suite reports carries the values
/// of its keys before and after (``DefaultsChange/values(of:)``), which is what the change log
/// and the rows it redraws need; a suite of a million keys held a second dictionary of every
/// value for that, about 100 MB.
///
/// The suite's file is read when its rows are first needed (``rowCount``, a row, a search, its
/// problem), not when the rows are made: an editor listing every suite of the preferences folder
/// paints its first screen after reading the suite it shows, not every one (a suite of a million
/// keys took seconds). Until then the rows follow no change and say nothing about the suite.
///
/// The rows follow the suite from before they take its keys: a change another process makes
/// while they are laid out (a key added or removed) is reported to them, never lost between
/// the read and the start of following (``SuiteReadProbe``).
@MainActor
final class SuiteRows: ExpandableRowSource, LiveRowSource, ReloadableRowSource,
  KeyEditingRowSource, ChangeReportingSource, Observable
{
  let title: String
  let location: String
  let kind: RowSourceKind
  private let registrar = ObservationRegistrar()
  /// The suite's file and the mandatory values' folders, opened by ``read()``.
  private let fileURL: URL
  private let systemFolders: [URL]
  /// The suite the values come from, once read (``defaults`` reads it).
  private var suite: PropertyListDefaults?
  /// The observation of the suite's changes, from its read on.
  private var observation: ObservationToken?
  /// The observation of whether the file reads, when the suite was read after watching began.
  private var readability: ObservationToken?
  /// Where outside changes go once the suite is read (set by ``startWatching(post:)``).
  private var watchingPost: MainJobPoster?
  /// The changes the suite reported and the rows do not show yet, in order, and where the
  /// suite's observer sends them to be shown once watching began.
  private let received = ReceivedChanges()
  /// The keys shown, laid out by ``read()``: none before.
  private var tree = PropertyListTreeRows(lines: PropertyListTreeLines(root: [:], expanded: []))
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
    fileURL = url
    self.systemFolders = systemFolders
    self.title = title ?? name
    suiteName = name
    self.describedKeys = describedKeys
    location = url.path
    kind = .suite
  }

  /// The suite, its file read now if it was not yet.
  private var defaults: PropertyListDefaults { suite ?? read() }

  /// Opens the suite (which reads its file), follows its changes, then lays out its keys; the
  /// changes are shown from when ``startWatching(post:)`` is called, at once if it came first.
  ///
  /// Followed before the keys are taken: a change merged after the suite's read and before
  /// the keys were taken is in them (and its report changes nothing shown), one merged after
  /// is reported. Taken first, a key another process added in between was in neither.
  private func read() -> PropertyListDefaults {
    let defaults = PropertyListDefaults(
      fileURL: fileURL, suite: suiteName, systemFolders: systemFolders)
    suite = defaults
    observation = defaults.observe { [received, weak self] change in
      received.append(change) { self?.showReceived() }
    }
    // The stored values only: not the registered defaults nor the command line's. The suite's
    // dictionary is shared while the keys are laid out, not copied.
    let values = defaults.exactPersistentValues
    SuiteReadProbe.run(with: defaults)
    var keys = values.keys.filter { !describedKeys.contains($0.string) }
    keys.sortByScalars()
    // Nothing observed the rows before: the first access reads them.
    tree = PropertyListTreeRows(
      lines: PropertyListTreeLines(sortedKeys: keys, expanded: [], value: { values[$0] }))
    if let watchingPost {
      // The editor wakes when the file stops reading or reads again (``RowSource/suiteFile``
      // is nil until now, so the editor did not ask for this).
      readability = defaults.observeReadability { watchingPost {} }
    }
    return defaults
  }

  /// Whether the suite holds a key that `describedKeys` does not list (the "other keys" of a
  /// suite its schemas describe).
  var isEmpty: Bool {
    _ = defaults
    return tree.lines.isEmpty
  }

  var rowCount: Int {
    _ = defaults
    registrar.access(self, keyPath: \.tree)
    return tree.lines.count
  }

  /// How many rows were built (``row(at:)`` calls): a first paint builds the visible ones only.
  private(set) var rowsBuilt = 0

  /// How many top-level keys were put in place in the lines since the first layout
  /// (``PropertyListTreeLines/keysPlaced``).
  var keysPlaced: Int {
    _ = defaults
    return tree.lines.keysPlaced
  }

  /// How many values (a key's before and after) were taken from the suite's change reports:
  /// those of the keys each change names.
  private(set) var valuesTaken = 0

  /// How many values the rows hold now, beside the suite's: those of the changes reported and
  /// not shown yet (0 once they are shown).
  var valuesHeld: Int { received.valueCount }

  func row(at index: Int) -> PropertyRow {
    rowsBuilt += 1
    let defaults = defaults
    let path = tree.lines[index].path
    registrar.access(self, keyPath: \.[observing: path])
    let row = tree.row(at: index, in: storedValue)
    guard case .key(let key)? = path.first, defaults.objectIsForced(forKey: key) else { return row }
    return row.placed(in: defaults.layer(forKey: key))
  }

  func rowMatches(_ pattern: SearchPattern, at index: Int) -> Bool {
    _ = defaults
    return tree.matches(pattern, at: index, in: storedValue)
  }

  var problem: String? {
    // The header already names the file; the rows pane is narrow.
    defaults.unreadableReason ?? defaults.lastError?.description
  }

  /// The suite once read, nil before: a suite not read yet says nothing about its file.
  var suiteFile: PropertyListDefaults? { suite }

  var hasReadValues: Bool { defaults.hasReadValues }

  func toggleExpansion(at index: Int) -> Bool {
    _ = defaults
    guard tree.toggle(at: index, in: storedValue) else { return false }
    if let lines = tree.laidOut(value: storedValue) {
      registrar.withMutation(of: self, keyPath: \.tree) { tree.lines = lines }
    }
    return true
  }

  /// Stores the scalar `value` at row `index`; a nested one writes its top-level key's value
  /// with the edited copy.
  func setValue(_ value: Any, at index: Int) throws {
    _ = defaults
    let (key, newValue) = try PropertyListTreeRows.editing(
      value, at: tree.lines[index].path, in: storedValue)
    try store([key: newValue])
  }

  /// The value of exactly `key` in the suite (nil for a key the schemas describe).
  func storedValue(_ key: PropertyListKey) -> Any? {
    guard !describedKeys.contains(key.string) else { return nil }
    return defaults.persistentValue(forKey: key.string)
  }

  func path(at index: Int) -> PropertyListPath {
    _ = defaults
    return tree.lines[index].path
  }

  /// Writes each key to the suite (one write a key) and redraws them; the changes the suite
  /// reported before are shown first.
  func store(_ changes: [PropertyListKey: Any?]) throws {
    showReceived()
    var written: [PropertyListKey: PropertyListTreeRows.ValueChange] = [:]
    defer { show(written, writer: nil) }
    for (key, value) in changes {
      let before = storedValue(key)
      try defaults.write(value, forKey: key.string, excluding: observation)
      written[key] = (before, storedValue(key))
    }
  }

  /// Shows the suite's outside changes from now on (those reported since its read first), or
  /// from when it is read if it is not yet.
  func startWatching(post: @escaping MainJobPoster) {
    guard watchingPost == nil else { return }
    watchingPost = post
    received.show(through: post)
    guard let suite else { return }
    // Read before: what it reported since (posted by itself once the poster was set), and
    // whether its file reads, from now on.
    if received.hasChanges { post { [weak self] in self?.showReceived() } }
    readability = suite.observeReadability { post {} }
  }

  /// Reads the suite's file again (after writing what is pending) and shows what changed.
  ///
  /// - Throws: The suite's ``PropertyListError`` when the file cannot be written or read.
  func reload() throws {
    // Read first: a suite read now is followed before the re-read below.
    let defaults = defaults
    defer { showReceived() }
    if !defaults.synchronize(), let error = defaults.lastError { throw error }
  }

  /// Shows the changes the suite reported since the last time, in order. A key changed by
  /// several of them is shown and reported once, from its value before the first to its value
  /// after the last, with the writer of the first.
  private func showReceived() {
    let changes = received.take()
    guard !changes.isEmpty else { return }
    var last: [PropertyListKey: Any?] = [:]
    for change in changes {
      for key in change.exactKeys {
        guard let values = change.values(of: key) else { continue }
        last[key] = values.after
      }
    }
    var shown: Set<PropertyListKey> = []
    for change in changes {
      var taken: [PropertyListKey: PropertyListTreeRows.ValueChange] = [:]
      for key in change.exactKeys where !shown.contains(key) {
        // A change without values (an administrator's file) leaves the stored values as they
        // are: the file's own changes come with theirs.
        guard let values = change.values(of: key), let after = last[key] else { continue }
        taken[key] = (values.before, after)
        shown.insert(key)
      }
      show(taken, writer: change.writer)
    }
  }

  /// Redraws the rows `changes` (top-level keys, their values before and after) change, lays
  /// the list out again only when keys appeared or disappeared or an open container changed,
  /// and reports the changes as made by `writer` (nil: this editor).
  private func show(
    _ changes: [PropertyListKey: PropertyListTreeRows.ValueChange], writer: DefaultsChange.Writer?
  ) {
    let changes = changes.filter { !describedKeys.contains($0.key.string) }
    guard !changes.isEmpty else { return }
    valuesTaken += changes.count
    let (lines, paths) = tree.showing(changes, value: storedValue)
    if let lines { registrar.withMutation(of: self, keyPath: \.tree) { tree.lines = lines } }
    for path in paths {
      registrar.withMutation(of: self, keyPath: \.[observing: path]) {}
    }
    // The log keeps the last ``ChangeLog/capacity`` changes: a larger burst (a whole file
    // replaced) reports that many of its keys.
    guard reportChange != nil else { return }
    let reported = changes.prefix(ChangeLog.capacity)
    reportChanges(
      reported.reduce(into: [String: Any?]()) { $0[$1.key.string] = $1.value.before },
      now: { changes[PropertyListKey($0)]?.after ?? nil }, writer: writer, store: defaults)
  }

  /// The observation identity of the value at one path (the value itself is the suite's).
  private subscript(observing path: PropertyListPath) -> PropertyListPath { path }
}

/// The changes a suite reported to its rows and the rows have not shown yet: added on the
/// thread that reports them, taken on the loop thread. Each is posted to be shown once a poster
/// is set (``show(through:)``); those that came before wait for it.
private final class ReceivedChanges: Sendable {
  private let changes = Mutex<[DefaultsChange]>([])
  private let poster = Mutex<MainJobPoster?>(nil)

  /// Adds `change` and posts `show` when a poster is set.
  func append(_ change: DefaultsChange, show: @escaping @MainActor @Sendable () -> Void) {
    changes.withLock { $0.append(change) }
    poster.withLock { $0 }?(show)
  }

  /// Posts the changes added from now on through `post`.
  func show(through post: @escaping MainJobPoster) {
    poster.withLock { $0 = post }
  }

  /// The changes in the order they came, removed.
  func take() -> [DefaultsChange] {
    changes.withLock { changes in
      defer { changes = [] }
      return changes
    }
  }

  /// Whether a change waits to be shown.
  var hasChanges: Bool {
    changes.withLock { !$0.isEmpty }
  }

  /// The values the changes hold: two for each key (before and after).
  var valueCount: Int {
    changes.withLock { $0.reduce(0) { $0 + 2 * $1.exactKeys.count } }
  }
}

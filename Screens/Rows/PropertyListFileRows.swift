import Foundation
import ObservableDefaultsCore
import Observation

/// A property-list file opened by path (XML or binary), shown as a tree: dictionaries and arrays
/// open with Enter, scalar values are edited by type and saved back into the same file.
///
/// Saving keeps the file's format (binary stays binary) and every value not edited; an edit
/// nested in a container replaces its top-level key's value with the edited copy. A file
/// changed on disk since it was loaded is never overwritten blindly: the edited keys are
/// applied over the new contents only when none of them changed there, otherwise the save is
/// refused (see ``PropertyListConflictError``) and ``reload()`` shows the file as it is now.
///
/// Once watching starts, other writers are followed live, as a suite follows them: a change
/// notice for the version this editor last read or wrote parses nothing, a binary file is
/// compared entry by entry and only the entries that differ are decoded, and only the keys that
/// changed are merged and redrawn (see ``merge(_:changedKeys:)``).
@MainActor
final class PropertyListFileRows: ExpandableRowSource, ReloadableRowSource, LiveRowSource,
  KeyEditingRowSource, Observable
{
  let title: String
  let location: String
  let kind = RowSourceKind.file
  private let file: PropertyListFile
  private let registrar = ObservationRegistrar()
  /// The version of the file last read or written (nil when it is gone or did not parse).
  private var disk: PropertyListSnapshot?
  /// The file as last read or saved.
  private var loaded: PropertyListDocument
  /// ``loaded`` with the unsaved edits.
  private var edited: PropertyListDocument
  /// The top-level keys whose values were edited and not saved yet.
  private(set) var editedKeys: Set<PropertyListKey> = []
  private var tree: PropertyListTreeRows
  private var watch: ObservationToken?
  /// Runs a job on the editor's loop (given to ``startWatching(post:)``).
  private var post: MainJobPoster?
  /// How long a file that reads empty is left before it is looked at again, in microseconds:
  /// the half-written pauses in all (``PropertyListFile/halfWrittenPauses``); tests set it.
  var secondLookPause = Int(PropertyListFile.halfWrittenPauses.reduce(0, +))

  /// Opens the property-list file at `url`.
  ///
  /// - Parameter url: The file (a symbolic link is followed when saving; its target is
  ///   replaced).
  /// - Throws: ``PropertyListError`` when the file is missing, unreadable or not a property list.
  init(file url: URL) throws {
    file = PropertyListFile(url: url)
    let snapshot = try Self.read(file)
    disk = snapshot
    loaded = snapshot.document
    edited = loaded
    title = url.lastPathComponent
    location = url.path
    tree = PropertyListTreeRows(root: loaded.values)
  }

  var rowCount: Int {
    registrar.access(self, keyPath: \.tree)
    return tree.lines.count
  }

  /// The path of the value shown in row `index`.
  func path(at index: Int) -> PropertyListPath {
    tree.lines[index].path
  }

  /// Observed per path: an edit redraws its own row; a save or reload that brings other
  /// writers' values redraws the rows of those keys (the editor marks them as changed
  /// elsewhere); opening or closing a container lays the list out again through ``rowCount``.
  func row(at index: Int) -> PropertyRow {
    let path = tree.lines[index].path
    registrar.access(self, keyPath: \.[observing: path])
    return tree.row(
      at: index, in: storedValue, isModified: editedKeys.contains(tree.lines[index].key))
  }

  func rowMatches(_ pattern: SearchPattern, at index: Int) -> Bool {
    tree.matches(pattern, at: index, in: storedValue)
  }

  func toggleExpansion(at index: Int) -> Bool {
    guard tree.toggle(at: index, in: storedValue) else { return false }
    show(edited)
    return true
  }

  /// Stores `value` in row `index` and saves the file; on failure the row keeps its old value.
  func setValue(_ value: Any, at index: Int) throws {
    try savingOrUndoing { try edit(value, at: tree.lines[index].path) }
  }

  /// The top-level keys and values shown now, with the unsaved edits.
  var storedValues: [PropertyListKey: Any] { edited.values }

  func storedValue(_ key: PropertyListKey) -> Any? { edited.values[key] }

  /// Sets (or with `nil` removes) top-level keys and saves the file in one write; on failure the
  /// rows keep their old values.
  func store(_ changes: [PropertyListKey: Any?]) throws {
    try savingOrUndoing {
      var document = edited
      for (key, value) in changes { document.values[key] = value }
      editedKeys.formUnion(changes.keys)
      show(document)
    }
  }

  /// Runs `edit` and saves; when either fails, shows the file as it was before and rethrows.
  private func savingOrUndoing(_ edit: () throws -> Void) throws {
    let before = (edited, editedKeys)
    do {
      try edit()
      try save()
    } catch {
      editedKeys = before.1
      show(before.0)
      throw error
    }
  }

  /// Replaces the scalar at `path` with `value` of the same type, without saving.
  ///
  /// - Throws: ``PropertyListEditError`` when the path leads to no scalar, or the value's type
  ///   differs from the current one.
  func edit(_ value: Any, at path: PropertyListPath) throws {
    let (topLevelKey, newValue) = try PropertyListTreeRows.editing(
      value, at: path, in: storedValue)
    edited.values[topLevelKey] = newValue
    editedKeys.insert(topLevelKey)
    registrar.withMutation(of: self, keyPath: \.[observing: path]) {}
  }

  /// Writes the edited top-level keys into the file (nothing at all when there are none).
  ///
  /// - Throws: ``PropertyListConflictError`` when another writer changed an edited key since the
  ///   file was loaded (the edits stay pending), or a ``PropertyListError``.
  func save() throws {
    let changes = Dictionary(
      uniqueKeysWithValues: editedKeys.map { key in
        (key, edited.values[key].map(PropertyListChange.set) ?? .remove)
      })
    loaded = try file.save(changes, over: loaded, known: &disk)
    editedKeys = []
    show(loaded)
  }

  /// Drops unsaved edits and shows the file as it is on disk now.
  ///
  /// - Throws: ``PropertyListError`` when the file is gone or no longer parses.
  func reload() throws {
    let snapshot = try Self.read(file)
    disk = snapshot
    loaded = snapshot.document
    editedKeys = []
    show(loaded)
  }

  func startWatching(post: @escaping MainJobPoster) {
    guard watch == nil else { return }
    self.post = post
    watch = file.watch { [weak self] in
      // Read on the loop thread, when the job runs: a read made here could be overtaken by
      // this editor's own save and bring back the value it replaced.
      post { self?.followDisk() }
    }
  }

  /// Reads the file again unless it is still the version last read or written, and merges the
  /// keys that changed (a file gone or not parsing keeps what is shown).
  ///
  /// A file that held values and reads empty is looked at again after ``secondLookPause`` (half
  /// a second) before its rows go: a program
  /// that writes it in place (`: > file`, then the new text) empties it for a moment, and every
  /// row would be shown removed and back.
  ///
  /// - Parameter isSecondLook: Whether this is that second look: what it reads is shown.
  private func followDisk(isSecondLook: Bool = false) {
    guard let changedKeys = try? file.rereadIfChanged(comparingTo: loaded.values, since: &disk),
      let document = disk?.document
    else { return }
    if !isSecondLook, document.values.isEmpty, !loaded.values.isEmpty, let post {
      // Forgotten, so that the next look reads the file whole and compares it with the rows.
      disk = nil
      DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(secondLookPause)) {
        post { [weak self] in self?.followDisk(isSecondLook: true) }
      }
      return
    }
    merge(document, changedKeys: changedKeys)
  }

  /// Shows `document`, just read from disk after another writer changed the top-level
  /// `changedKeys`: those whose values differ redraw their rows (once each),
  /// the others draw nothing. Keys with unsaved edits keep the edits, and the file as loaded
  /// keeps their old values, so saving them is still refused when the other writer changed them
  /// too.
  private func merge(_ document: PropertyListDocument, changedKeys: Set<PropertyListKey>) {
    let keys = changedKeys.subtracting(editedKeys)
    for key in keys { loaded.values[key] = document.values[key] }
    let (lines, paths) = tree.taking(keys, from: { document.values[$0] }, into: &edited.values)
    if let lines { registrar.withMutation(of: self, keyPath: \.tree) { tree.lines = lines } }
    for path in paths {
      registrar.withMutation(of: self, keyPath: \.[observing: path]) {}
    }
  }

  /// Shows `document`: lays the list out again when its lines changed, and redraws the rows
  /// whose values differ from those shown (looking only under the top-level keys that changed).
  private func show(_ document: PropertyListDocument) {
    let changes = Set(edited.values.keys).union(document.values.keys).reduce(
      into: [PropertyListKey: PropertyListTreeRows.ValueChange]()
    ) { changes, key in
      let (before, after) = (edited.values[key], document.values[key])
      if !propertyListValuesEqual(before, after) { changes[key] = (before, after) }
    }
    edited = document
    if let newLines = tree.laidOut(edited.values) {
      registrar.withMutation(of: self, keyPath: \.tree) { tree.lines = newLines }
    }
    for path in tree.changedPaths(under: changes) {
      registrar.withMutation(of: self, keyPath: \.[observing: path]) {}
    }
  }

  /// The observation identity of the value at one path (the value itself lives in `edited`).
  private subscript(observing path: PropertyListPath) -> PropertyListPath { path }

  /// The file's version, with its entries: the editor follows its changes, and the first
  /// re-read then decodes only the entries another program changed.
  private static func read(_ file: PropertyListFile) throws -> PropertyListSnapshot {
    guard let snapshot = try file.readSnapshot(keepingEntries: true) else {
      throw PropertyListError(file: file.url, kind: .unreadable, reason: "no such file")
    }
    return snapshot
  }
}

/// An edit a ``PropertyListFileRows`` refused.
enum PropertyListEditError: Error, Equatable, CustomStringConvertible {
  case notAScalar(PropertyListPath)
  case wrongType(PropertyListPath, expected: PropertyListScalarType)

  var description: String {
    switch self {
    case .notAScalar(let path): "\(Self.name(path)) is not a value that can be edited"
    case .wrongType(let path, let expected): "\(Self.name(path)) holds a \(expected.rawValue)"
    }
  }

  private static func name(_ path: PropertyListPath) -> String {
    path.map(\.description).joined(separator: " / ")
  }
}

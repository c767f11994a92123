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
@MainActor
final class PropertyListFileDomain: ExpandableRowSource, Observable {
  let title: String
  let location: String
  let kind = RowSourceKind.file
  /// Whether edits are refused (the editor's `--readonly`).
  let isReadOnly: Bool
  private let file: PropertyListFile
  private let registrar = ObservationRegistrar()
  /// The file as last read or saved.
  private var loaded: PropertyListDocument
  /// ``loaded`` with the unsaved edits.
  private var edited: PropertyListDocument
  /// The top-level keys whose values were edited and not saved yet.
  private(set) var editedKeys: Set<String> = []
  private var expanded: Set<PropertyListPath> = []
  private var lines: [PropertyListTreeLines.Line] = []

  /// Opens the property-list file at `url`.
  ///
  /// - Parameters:
  ///   - url: The file (a symbolic link is followed when saving; its target is replaced).
  ///   - isReadOnly: Refuse edits.
  /// - Throws: ``PropertyListError`` when the file is missing, unreadable or not a property list.
  init(file url: URL, isReadOnly: Bool = false) throws {
    file = PropertyListFile(url: url)
    loaded = try Self.read(file)
    edited = loaded
    self.isReadOnly = isReadOnly
    title = url.lastPathComponent
    location = url.path
    lines = PropertyListTreeLines(root: loaded.values, expanded: expanded).lines
  }

  /// The values shown, edits included.
  var values: [String: Any] { edited.values }

  /// The format the file is stored in (and saved in).
  var format: PropertyListSerialization.PropertyListFormat { loaded.format }

  var rowCount: Int {
    registrar.access(self, keyPath: \.lines)
    return lines.count
  }

  /// The path of the value shown in row `index`.
  func path(at index: Int) -> PropertyListPath {
    registrar.access(self, keyPath: \.lines)
    return lines[index].path
  }

  func row(at index: Int) -> PropertyRow {
    registrar.access(self, keyPath: \.lines)
    let line = lines[index]
    let value = PropertyListTree.value(at: line.path, in: edited.values) as Any
    let summary = ValueSummary(value)
    let isContainer = PropertyListScalarType(of: value) == nil
    // After the label, so top-level names start in the name column as in the suites' rows.
    let disclosure = isContainer ? (expanded.contains(line.path) ? " ▾" : " ▸") : ""
    // Dates with every digit of their fraction; the summary keeps milliseconds only.
    let text = value is Date ? PropertyListScalarType.text(of: value) : nil
    return PropertyRow(
      name: String(repeating: "  ", count: line.depth) + line.label + disclosure,
      key: line.path.map(\.description).joined(separator: " / "), typeName: summary.typeName,
      value: text ?? summary.text,
      isModified: line.path.first.map { editedKeys.contains($0.description) } ?? false,
      editing: editing(value, isContainer: isContainer))
  }

  func toggleExpansion(at index: Int) -> Bool {
    let path = lines[index].path
    guard !PropertyListTreeLines.children(of: value(at: path)).isEmpty else { return false }
    if expanded.remove(path) == nil { expanded.insert(path) }
    relayOut()
    return true
  }

  /// Stores `value` in row `index` and saves the file; on failure the row keeps its old value.
  func setValue(_ value: Any, at index: Int) throws {
    let before = (edited, editedKeys)
    do {
      try edit(value, at: lines[index].path)
      try save()
    } catch {
      (edited, editedKeys) = before
      relayOut()
      throw error
    }
  }

  /// Replaces the scalar at `path` with `value` of the same type, without saving.
  ///
  /// - Throws: ``PropertyListEditError`` when the domain is read-only, the path leads to no
  ///   scalar, or the value's type differs from the current one.
  func edit(_ value: Any, at path: PropertyListPath) throws {
    guard !isReadOnly else { throw PropertyListEditError.readOnly }
    guard let current = PropertyListScalarType(of: self.value(at: path)),
      case .key(let topLevelKey)? = path.first
    else { throw PropertyListEditError.notAScalar(path) }
    guard PropertyListScalarType(of: value) == current else {
      throw PropertyListEditError.wrongType(path, expected: current)
    }
    edited.values = try PropertyListTree.setting(value, at: path, in: edited.values)
    editedKeys.insert(topLevelKey)
    relayOut()
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
    loaded = try file.save(changes, over: loaded)
    edited = loaded
    editedKeys = []
    relayOut()
  }

  /// Drops unsaved edits and shows the file as it is on disk now.
  ///
  /// - Throws: ``PropertyListError`` when the file is gone or no longer parses.
  func reload() throws {
    loaded = try Self.read(file)
    edited = loaded
    editedKeys = []
    relayOut()
  }

  private func value(at path: PropertyListPath) -> Any {
    PropertyListTree.value(at: path, in: edited.values) as Any
  }

  private func relayOut() {
    registrar.withMutation(of: self, keyPath: \.lines) {
      lines = PropertyListTreeLines(root: edited.values, expanded: expanded).lines
    }
  }

  private func editing(_ value: Any, isContainer: Bool) -> RowEditing {
    if isReadOnly { return .readOnly("opened read-only") }
    if isContainer { return .readOnly("Enter opens and closes it") }
    if let flag = value as? Bool { return .toggle(flag) }
    guard let type = PropertyListScalarType(of: value),
      let text = PropertyListScalarType.text(of: value)
    else { return .readOnly("not a property-list value") }
    return .text(TextValueFormat(base: .propertyList(type)), text: text)
  }

  private static func read(_ file: PropertyListFile) throws -> PropertyListDocument {
    guard let document = try file.read() else {
      throw PropertyListError(file: file.url, kind: .unreadable, reason: "no such file")
    }
    return document
  }
}

/// An edit a ``PropertyListFileDomain`` refused.
enum PropertyListEditError: Error, Equatable, CustomStringConvertible {
  case readOnly
  case notAScalar(PropertyListPath)
  case wrongType(PropertyListPath, expected: PropertyListScalarType)

  var description: String {
    switch self {
    case .readOnly: "the file was opened read-only"
    case .notAScalar(let path): "\(Self.name(path)) is not a value that can be edited"
    case .wrongType(let path, let expected): "\(Self.name(path)) holds a \(expected.rawValue)"
    }
  }

  private static func name(_ path: PropertyListPath) -> String {
    path.map(\.description).joined(separator: " / ")
  }
}

import Foundation
import ObservableDefaultsCore

/// A raw property list shown as a tree, for suites and files alike: which containers are open,
/// the visible lines, each line's row, nested edits, and which lines new values change. The
/// sources keep the values (or read them from their suite) and report changes through
/// Observation.
struct PropertyListTreeRows {
  /// Reads the value of a top-level key (nil: not stored).
  typealias TopLevelValue = (PropertyListKey) -> Any?

  /// A top-level key's value before and after a change (nil: not stored).
  typealias ValueChange = (before: Any?, after: Any?)

  /// The visible lines, top to bottom.
  var lines: PropertyListTreeLines
  private var expanded: Set<PropertyListPath> = []

  /// Every top-level key of `root`, all closed.
  init(root: [PropertyListKey: Any]) {
    self.init(lines: PropertyListTreeLines(root: root, expanded: []))
  }

  /// These lines, every container closed.
  init(lines: PropertyListTreeLines) {
    self.lines = lines
  }

  /// The row of line `index`, its value read through `root`.
  func row(at index: Int, in root: TopLevelValue, isModified: Bool = false) -> PropertyRow {
    let path = lines[index].path
    let value = PropertyListTree.value(at: path, in: root) as Any
    let summary = ValueSummary(value)
    let opens = !PropertyListTreeLines.children(of: value).isEmpty
    // After the label, so top-level names start in the name column as scalar keys do.
    let disclosure = opens ? (expanded.contains(path) ? " ▾" : " ▸") : ""
    // Dates with every digit of their fraction; the summary keeps milliseconds only.
    let text = value is Date ? PropertyListScalarType.text(of: value) : nil
    return PropertyRow(
      name: String(repeating: "  ", count: lines[index].depth) + lines[index].label + disclosure,
      key: path.map(\.description).joined(separator: " / "), typeName: summary.typeName,
      value: text ?? summary.text, isModified: isModified,
      editing: Self.editing(value, summary: summary, opens: opens))
  }

  /// Whether line `index` shows `pattern` in its key path or its value, read through `root`
  /// without building its row (a search looks at every line).
  func matches(_ pattern: SearchPattern, at index: Int, in root: TopLevelValue) -> Bool {
    let line = lines[index]
    if pattern.matches(line.key.string) { return true }
    if line.rest.contains(where: { pattern.matches($0.description) }) { return true }
    let value = PropertyListTree.value(at: line.path, in: root) as Any
    if let text = value as? String { return pattern.matches(text) }
    return pattern.matches(ValueSummary(value).text)
  }

  /// Opens or closes the container at line `index` of `root`; false for a scalar or an empty
  /// container. The lines change with the next ``laidOut(_:)`` or ``laidOut(value:)``.
  mutating func toggle(at index: Int, in root: TopLevelValue) -> Bool {
    let path = lines[index].path
    let value = PropertyListTree.value(at: path, in: root) as Any
    guard !PropertyListTreeLines.children(of: value).isEmpty else { return false }
    if expanded.remove(path) == nil { expanded.insert(path) }
    return true
  }

  /// The lines of `root` with the open containers, or nil when they are the ones shown.
  func laidOut(_ root: [PropertyListKey: Any]) -> PropertyListTreeLines? {
    changed(PropertyListTreeLines(root: root, expanded: expanded))
  }

  /// The lines of the top-level keys shown, their values read through `value`, with the open
  /// containers, or nil when they are the ones shown (the keys are not sorted again).
  func laidOut(value: TopLevelValue) -> PropertyListTreeLines? {
    changed(
      PropertyListTreeLines(sortedKeys: lines.topLevelKeys, expanded: expanded, value: value))
  }

  /// `newLines`, counting the keys placed, or nil when they are the lines shown.
  private func changed(_ newLines: PropertyListTreeLines) -> PropertyListTreeLines? {
    var newLines = newLines
    guard newLines != lines else { return nil }
    newLines.keysPlaced += lines.keysPlaced
    return newLines
  }

  /// Whether a container inside the top-level `key` is open (its children have lines).
  func isOpen(underKey key: PropertyListKey) -> Bool {
    expanded.contains { $0.first == .key(key.string) }
  }

  /// Takes the values of the top-level `keys` from `newValue` (nil: the key is gone) into
  /// `values`, looking at those keys only, and tells what that changes on screen
  /// (``showing(_:value:)``).
  func taking(
    _ keys: Set<PropertyListKey>, from newValue: (PropertyListKey) -> Any?,
    into values: inout [PropertyListKey: Any]
  ) -> (lines: PropertyListTreeLines?, paths: [PropertyListPath]) {
    var changes: [PropertyListKey: ValueChange] = [:]
    for key in keys {
      let value = newValue(key)
      guard !propertyListValuesEqual(values[key], value) else { continue }
      changes[key] = (values[key], value)
      values[key] = value
    }
    return showing(changes, value: { [values] in values[$0] })
  }

  /// What `changes` of top-level keys (each key's value before and after; other values read
  /// through `value`) change on screen, looking at those keys only: the new lines when keys
  /// appeared or disappeared or an open container changed (else nil), and the visible paths
  /// whose values differ. A few keys that appeared or disappeared, none of them open, are put in
  /// place or taken out of the lines one by one; more, or an open one, lay every key out again
  /// (the keys shown, with those that appeared and without those that went).
  func showing(_ changes: [PropertyListKey: ValueChange], value: TopLevelValue) -> (
    lines: PropertyListTreeLines?, paths: [PropertyListPath]
  ) {
    let changes = changes.filter { !propertyListValuesEqual($0.value.before, $0.value.after) }
    guard !changes.isEmpty else { return (nil, []) }
    var (added, removed): ([PropertyListKey], [PropertyListKey]) = ([], [])
    for (key, change) in changes {
      if change.before == nil {
        added.append(key)
      } else if change.after == nil {
        removed.append(key)
      }
    }
    let paths = changedPaths(under: changes)
    if added.isEmpty, removed.isEmpty, !changes.keys.contains(where: isOpen(underKey:)) {
      return (nil, paths)
    }
    if !changes.keys.contains(where: isOpen(underKey:))
      && added.count + removed.count <= Self.keysPlacedOneByOne
    {
      return (lines.updating(adding: added, removing: removed), paths)
    }
    let gone = Set(removed)
    var keys = lines.topLevelKeys.filter { !gone.contains($0) }
    keys += added.filter { !lines.contains(key: $0) }
    keys.sortByScalars()
    let after: TopLevelValue = { key in changes[key].map(\.after) ?? value(key) }
    var laidOut = PropertyListTreeLines(sortedKeys: keys, expanded: expanded, value: after)
    // Every key placed again, as a layout of all keys.
    laidOut.keysPlaced += lines.keysPlaced
    return (laidOut == lines ? nil : laidOut, paths)
  }

  /// The most keys that appear or disappear at once that are put in place one by one (each
  /// moves the keys after it); more are laid out with every key, sorted again.
  static let keysPlacedOneByOne = 64

  /// The visible paths under the top-level keys of `changes` whose values differ before and
  /// after.
  func changedPaths(under changes: [PropertyListKey: ValueChange]) -> [PropertyListPath] {
    // A closed key has one line: no need to look through all of them.
    var candidates: [PropertyListPath] = []
    var open: Set<PropertyListKey> = []
    for key in changes.keys {
      if isOpen(underKey: key) { open.insert(key) } else { candidates.append([.key(key.string)]) }
    }
    if !open.isEmpty {
      candidates += lines.filter { open.contains($0.key) }.map(\.path)
    }
    return candidates.filter { path in
      guard case .key(let key)? = path.first, let change = changes[PropertyListKey(key)] else {
        return false
      }
      let rest = Array(path.dropFirst())
      return !propertyListValuesEqual(
        change.before.flatMap { PropertyListTree.value(at: rest, below: $0) },
        change.after.flatMap { PropertyListTree.value(at: rest, below: $0) })
    }
  }

  /// The new value of the top-level key of `path` once the scalar there is replaced by
  /// `value` of the same type.
  ///
  /// - Throws: ``PropertyListEditError`` when the path leads to no scalar, or the value's type
  ///   differs from the current one.
  static func editing(_ value: Any, at path: PropertyListPath, in root: TopLevelValue)
    throws -> (key: PropertyListKey, value: Any)
  {
    guard
      let current = PropertyListScalarType(of: PropertyListTree.value(at: path, in: root) as Any),
      case .key(let key)? = path.first
    else { throw PropertyListEditError.notAScalar(path) }
    guard PropertyListScalarType(of: value) == current else {
      throw PropertyListEditError.wrongType(path, expected: current)
    }
    // Only the edited key is copied, not the whole (possibly large) root.
    let exactKey = PropertyListKey(key)
    let edited = try PropertyListTree.setting(
      value, at: path, in: [exactKey: root(exactKey) as Any])
    return (exactKey, edited[exactKey] as Any)
  }

  private static func editing(_ value: Any, summary: ValueSummary, opens: Bool) -> RowEditing {
    if opens { return .readOnly("Enter opens and closes it") }
    return .propertyListScalar(value) ?? .readOnly("an empty \(summary.typeName) has no values")
  }
}

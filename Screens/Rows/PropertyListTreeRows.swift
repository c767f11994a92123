import Foundation
import ObservableDefaultsCore

/// A raw property list shown as a tree, for suites and files alike: which containers are open,
/// the visible lines, each line's row, nested edits, and which lines new values change. The
/// sources keep the values and report changes through Observation.
struct PropertyListTreeRows {
  /// The visible lines, top to bottom.
  var lines: PropertyListTreeLines
  private var expanded: Set<PropertyListPath> = []

  /// Every top-level key of `root`, all closed.
  init(root: [PropertyListKey: Any]) {
    lines = PropertyListTreeLines(root: root, expanded: [])
  }

  /// The row of line `index`, its value read from `root`.
  func row(at index: Int, in root: [PropertyListKey: Any], isModified: Bool = false)
    -> PropertyRow
  {
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

  /// Whether line `index` shows `pattern` in its key path or its value, read from `root`
  /// without building its row (a search looks at every line).
  func matches(_ pattern: SearchPattern, at index: Int, in root: [PropertyListKey: Any]) -> Bool {
    let line = lines[index]
    if pattern.matches(line.key.string) { return true }
    if line.rest.contains(where: { pattern.matches($0.description) }) { return true }
    let value = PropertyListTree.value(at: line.path, in: root) as Any
    if let text = value as? String { return pattern.matches(text) }
    return pattern.matches(ValueSummary(value).text)
  }

  /// Opens or closes the container at line `index` of `root`; false for a scalar or an empty
  /// container. The lines change with the next ``laidOut(_:)``.
  mutating func toggle(at index: Int, in root: [PropertyListKey: Any]) -> Bool {
    let path = lines[index].path
    let value = PropertyListTree.value(at: path, in: root) as Any
    guard !PropertyListTreeLines.children(of: value).isEmpty else { return false }
    if expanded.remove(path) == nil { expanded.insert(path) }
    return true
  }

  /// The lines of `root` with the open containers, or nil when they are the ones shown.
  func laidOut(_ root: [PropertyListKey: Any]) -> PropertyListTreeLines? {
    var newLines = PropertyListTreeLines(root: root, expanded: expanded)
    guard newLines != lines else { return nil }
    newLines.keysPlaced += lines.keysPlaced
    return newLines
  }

  /// Whether a container inside the top-level `key` is open (its children have lines).
  func isOpen(underKey key: PropertyListKey) -> Bool {
    expanded.contains { $0.first == .key(key.string) }
  }

  /// Takes the values of the top-level `keys` from `newValue` (nil: the key is gone) into
  /// `values`, looking at those keys only, and tells what that changes on screen: the new lines
  /// when keys appeared or disappeared or an open container changed (else nil), and the visible
  /// paths whose values differ. A few keys that appeared or disappeared, none of them open, are
  /// put in place or taken out of the lines one by one; more, or an open one, lay every key out
  /// again.
  func taking(
    _ keys: Set<PropertyListKey>, from newValue: (PropertyListKey) -> Any?,
    into values: inout [PropertyListKey: Any]
  ) -> (lines: PropertyListTreeLines?, paths: [PropertyListPath]) {
    var before: [PropertyListKey: Any] = [:]
    var changed: Set<PropertyListKey> = []
    var (added, removed): ([PropertyListKey], [PropertyListKey]) = ([], [])
    for key in keys {
      let value = newValue(key)
      guard !propertyListValuesEqual(values[key], value) else { continue }
      if values[key] == nil { added.append(key) } else if value == nil { removed.append(key) }
      before[key] = values[key]
      changed.insert(key)
      values[key] = value
    }
    guard !changed.isEmpty else { return (nil, []) }
    let paths = changedPaths(under: changed, from: before, to: values)
    if changed.contains(where: isOpen(underKey:))
      || added.count + removed.count > Self.keysPlacedOneByOne
    {
      return (laidOut(values), paths)
    }
    if added.isEmpty, removed.isEmpty { return (nil, paths) }
    return (lines.updating(adding: added, removing: removed), paths)
  }

  /// The most keys that appear or disappear at once that are put in place one by one (each
  /// moves the keys after it); more are laid out with every key, sorted again.
  static let keysPlacedOneByOne = 64

  /// The visible paths under the top-level `keys` whose values differ between `old` and `new`
  /// (each holding at least those keys' values).
  func changedPaths(
    under keys: Set<PropertyListKey>, from old: [PropertyListKey: Any],
    to new: [PropertyListKey: Any]
  ) -> [PropertyListPath] {
    let open = keys.filter(isOpen(underKey:))
    // A closed key has one line: no need to look through all of them.
    var candidates = keys.subtracting(open).map { [PropertyListPathComponent.key($0.string)] }
    if !open.isEmpty {
      candidates += lines.filter { open.contains($0.key) }.map(\.path)
    }
    return candidates.filter {
      !propertyListValuesEqual(
        PropertyListTree.value(at: $0, in: old), PropertyListTree.value(at: $0, in: new))
    }
  }

  /// The new value of the top-level key of `path` once the scalar there is replaced by
  /// `value` of the same type.
  ///
  /// - Throws: ``PropertyListEditError`` when the path leads to no scalar, or the value's type
  ///   differs from the current one.
  static func editing(_ value: Any, at path: PropertyListPath, in root: [PropertyListKey: Any])
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
    let edited = try PropertyListTree.setting(value, at: path, in: [exactKey: root[key] as Any])
    return (exactKey, edited[exactKey] as Any)
  }

  private static func editing(_ value: Any, summary: ValueSummary, opens: Bool) -> RowEditing {
    if opens { return .readOnly("Enter opens and closes it") }
    return .propertyListScalar(value) ?? .readOnly("an empty \(summary.typeName) has no values")
  }
}

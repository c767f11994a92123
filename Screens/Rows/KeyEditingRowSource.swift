import Foundation
import ObservableDefaultsCore

/// A ``RowSource`` whose keys the user adds, renames and removes, and whose arrays take new
/// elements and lose them (a raw suite or a file opened by path: no schema to keep to).
///
/// A conforming source provides its top-level values, the path of each row and one way to store
/// top-level keys; adding, renaming, appending, removing, undo snapshots and restoring are
/// implemented once, here, over those.
@MainActor
protocol KeyEditingRowSource: RowSource {
  /// The value of exactly the top-level `key` shown now (with unsaved edits, for a file), nil
  /// when none: keys that differ only in Unicode normalization are two keys, as in the file.
  func storedValue(_ key: PropertyListKey) -> Any?
  /// The path of the value shown in row `index`.
  func path(at index: Int) -> PropertyListPath
  /// Stores new values of top-level keys together (`nil` removes a key) and redraws their rows.
  ///
  /// - Throws: The store's error; nothing is changed then.
  func store(_ changes: [PropertyListKey: Any?]) throws
  /// Keys of the store that are not shown here and cannot be added here: those a schema lists
  /// (the suite's "other keys" leave them to the schema's rows).
  var describedKeys: Set<String> { get }
}

extension KeyEditingRowSource {
  var hasDefaults: Bool { false }

  var describedKeys: Set<String> { [] }

  /// Stores `value` under the new top-level key `key`.
  ///
  /// - Throws: ``RowSourceError`` when `key` is empty, already there, or a schema lists it.
  func addKey(_ key: String, value: Any) throws {
    guard !describedKeys.contains(key) else {
      throw RowSourceError.unsupported("\(key) is listed by the schema: edit its row there")
    }
    guard !key.isEmpty, storedValue(PropertyListKey(key)) == nil else {
      throw RowSourceError.unsupported("\(title) already has a key \(key)")
    }
    try store([PropertyListKey(key): value])
  }

  /// Moves the top-level key of row `index` to `newKey`, in one store.
  ///
  /// - Throws: ``RowSourceError`` when the row is nested or `newKey` is empty or taken.
  func renameKey(at index: Int, to newKey: String) throws {
    let path = path(at: index)
    guard path.count == 1, case .key(let key)? = path.first else {
      throw RowSourceError.unsupported("only top-level keys are renamed")
    }
    guard !newKey.isEmpty, storedValue(PropertyListKey(newKey)) == nil else {
      throw RowSourceError.unsupported("\(title) already has a key \(newKey)")
    }
    try store([
      PropertyListKey(newKey): storedValue(PropertyListKey(key)), PropertyListKey(key): nil,
    ])
  }

  /// Appends `value` to the array of row `index` (the array itself, or one of its elements).
  ///
  /// - Throws: ``RowSourceError`` when the row is not in an array.
  func appendElement(_ value: Any, at index: Int) throws {
    var path = path(at: index)
    if case .index? = path.last, path.count > 1 { path.removeLast() }
    guard let items = PropertyListTree.value(at: path, in: { storedValue($0) }) as? [Any] else {
      throw RowSourceError.unsupported("a adds elements to arrays (and keys to \(title))")
    }
    try store(items + [value], at: path)
  }

  /// Removes the top-level key of row `index` (there is no default to go back to: its rows go
  /// away), or an element of an array. Another nested row is refused: the key holding it would
  /// go with it.
  func resetValue(at index: Int) throws {
    let path = path(at: index)
    if path.count > 1, case .index(let element)? = path.last,
      var items = PropertyListTree.value(at: Array(path.dropLast()), in: { storedValue($0) })
        as? [Any]
    {
      items.remove(at: element)
      try store(items, at: Array(path.dropLast()))
      return
    }
    guard path.count == 1, case .key(let key)? = path.first else {
      throw RowSourceError.unsupported(
        "d removes top-level keys only; \(path.map(\.description).joined(separator: " / ")) is "
          + "inside \(path.first?.description ?? "")")
    }
    try store([PropertyListKey(key): nil])
  }

  /// The top-level key of row `index`, for undo.
  func topLevelKey(at index: Int) -> String {
    guard case .key(let key)? = path(at: index).first else { return "" }
    return key
  }

  /// The stored value of a top-level key, for undo.
  func storedValue(forKey key: String) -> Any? { storedValue(PropertyListKey(key)) }

  /// The top-level key and its stored value, so undo finds the key even after rows moved.
  func snapshot(at index: Int) -> RowSnapshot? {
    let key = topLevelKey(at: index)
    return .storedUnder(key: key, value: storedValue(forKey: key))
  }

  /// Writes the value of a ``snapshot(at:)`` back under its key (or removes the key).
  func restore(_ snapshot: RowSnapshot, at index: Int) throws {
    guard case .storedUnder(let key, let value) = snapshot else {
      throw RowSourceError.unsupported("\(title) restores only the values it took")
    }
    try store([PropertyListKey(key): value])
  }

  /// Stores `value` at `path`, writing its top-level key whole.
  private func store(_ value: Any, at path: PropertyListPath) throws {
    guard case .key(let key)? = path.first else { return }
    let exactKey = PropertyListKey(key)
    let edited = try PropertyListTree.setting(
      value, at: path, in: [exactKey: storedValue(exactKey) as Any])
    try store([exactKey: edited[exactKey]])
  }
}

/// What a typed entry of the editor's prompts stands for: `[key] [-type] value`, the types of
/// macOS `defaults write` (`-string -int -float -bool -date -data`, `-array` and `-dict` for an
/// empty container); a string when no type is given.
enum TypedEntry {
  /// The value of `text` (`-int 7`, `hello world`, `-array`).
  ///
  /// - Throws: ``ValueInputError`` when the text is not a value of its type.
  static func value(of text: String) throws(ValueInputError) -> Any {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed == "-array" { return [Any]() }
    if trimmed == "-dict" { return [String: Any]() }
    guard let space = trimmed.firstIndex(of: " "),
      let type = PropertyListScalarType(flag: String(trimmed[..<space]))
    else { return text }
    let rest = String(trimmed[trimmed.index(after: space)...])
    do {
      return try type.parse(rest)
    } catch {
      throw ValueInputError(text: rest, typeName: type.rawValue, reason: error.reason)
    }
  }

  /// The key and value of `text` (`volume -int 7`).
  ///
  /// - Throws: ``ValueInputError`` when there is no key or the value is not of its type.
  static func entry(of text: String) throws(ValueInputError) -> (key: String, value: Any) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let space = trimmed.firstIndex(of: " "), space != trimmed.startIndex else {
      guard !trimmed.isEmpty else {
        throw ValueInputError(text: text, typeName: "entry", reason: "a key is missing")
      }
      throw ValueInputError(text: text, typeName: "entry", reason: "a value is missing")
    }
    return (
      String(trimmed[..<space]), try value(of: String(trimmed[trimmed.index(after: space)...]))
    )
  }
}

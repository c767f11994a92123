import Foundation
import ObservableDefaultsCore

/// A ``RowSource`` whose keys the user adds, renames and removes, and whose arrays take new
/// elements and lose them (a raw suite: it has no schema to keep to).
@MainActor
protocol KeyEditingRowSource: RowSource {
  /// Stores `value` under the new top-level key `key`.
  ///
  /// - Throws: ``RowSourceError`` when `key` is empty or already there.
  func addKey(_ key: String, value: Any) throws
  /// Moves the top-level key of row `index` to `newKey`.
  ///
  /// - Throws: ``RowSourceError`` when the row is nested or `newKey` is empty or taken.
  func renameKey(at index: Int, to newKey: String) throws
  /// Appends `value` to the array of row `index` (the array itself, or one of its elements).
  ///
  /// - Throws: ``RowSourceError`` when the row is not in an array.
  func appendElement(_ value: Any, at index: Int) throws
  /// The top-level key of row `index`, for undo.
  func topLevelKey(at index: Int) -> String
  /// The stored value of a top-level key, for undo.
  func storedValue(forKey key: String) -> Any?
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
    return (String(trimmed[..<space]), try value(of: String(trimmed[trimmed.index(after: space)...])))
  }
}

import Foundation

/// Writes changes into the text of an XML property list in place: the entries changed get new
/// text, removed ones lose theirs, new ones are added at the end of the top dictionary, and
/// every other byte — other writers' and hand edits' text, the declaration and document type,
/// indentation — stays as it was.
///
/// A flush of one key of a 10,000-key XML suite was Foundation's `PropertyListEncoder`
/// re-encoding every key (two thirds of the flush). Each changed entry is encoded alone by the
/// same encoder, as a dictionary of one entry at the same depth (so with the indentation
/// Foundation gives the entries of a whole file), and its text is spliced in.
enum XMLPropertyListEdit {
  /// `text` with `changes` applied, or nil when the text is not in the plain form
  /// ``XMLPropertyListEntries`` scans (or holds a key twice): encode the whole document then.
  ///
  /// - Parameters:
  ///   - changes: Top-level key → change; values are canonical property-list values.
  ///   - text: The file's bytes, which parse to the document the changes apply to.
  /// - Throws: The encoder's error when a value is not a property-list value.
  static func applying(_ changes: [String: PropertyListChange], to text: Data) throws -> Data? {
    guard let dictionary = text.withUnsafeBytes({ XMLPropertyListEntries.topDictionary($0) })
    else { return nil }
    var positions: [String: Int] = [:]
    for (index, entry) in dictionary.entries.enumerated() where changes[entry.key] != nil {
      guard positions.updateValue(index, forKey: entry.key) == nil else { return nil }
    }
    // (range replaced, new bytes), applied from the end of the text backwards.
    var edits: [(Range<Int>, Data)] = []
    var added = Data()
    for (key, change) in changes.sorted(by: { $0.key < $1.key }) {
      let index = positions[key]
      switch (change, index) {
      case (.set(let value), let index?):
        guard let text = try entryText(key, value) else { return nil }
        edits.append((dictionary.entries[index].value, text.value))
      case (.set(let value), nil):
        guard let text = try entryText(key, value) else { return nil }
        added.append(text.entry)
      case (.remove, let index?):
        // The entry and the white space before it (back to the entry before, or `<dict>`).
        let start =
          index == 0
          ? dictionary.contents.lowerBound : dictionary.entries[index - 1].value.upperBound
        edits.append((start..<dictionary.entries[index].value.upperBound, Data()))
      case (.remove, nil):
        continue
      }
    }
    let end = dictionary.entries.last?.value.upperBound ?? dictionary.contents.lowerBound
    if !added.isEmpty { edits.append((end..<end, added)) }
    var result = text
    let base = text.startIndex
    for (range, bytes) in edits.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
      result.replaceSubrange((base + range.lowerBound)..<(base + range.upperBound), with: bytes)
    }
    return result
  }

  /// The text Foundation writes for one entry of a top dictionary: the value element alone, and
  /// the whole entry with the line break and indentation before it; nil when it is not in the
  /// plain form (a key with an entity).
  private static func entryText(_ key: String, _ value: Any) throws -> (value: Data, entry: Data)? {
    let document = try PropertyListEncoding.data(
      of: PropertyListDocument(values: [key: value], format: .xml))
    guard let dictionary = document.withUnsafeBytes({ XMLPropertyListEntries.topDictionary($0) }),
      let entry = dictionary.entries.first
    else { return nil }
    let base = document.startIndex
    let value = document[(base + entry.value.lowerBound)..<(base + entry.value.upperBound)]
    let whole = document[(base + dictionary.contents.lowerBound)..<(base + entry.value.upperBound)]
    return (Data(value), Data(whole))
  }
}

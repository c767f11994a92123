package import Foundation

/// Nested dictionaries keyed by exact keys (`[PropertyListKey: Any]`: two of their keys differ
/// only in Unicode normalization) made writable by `JSONSerialization`, which keys by `String`
/// and so keeps one of such keys (measured with Foundation's encoders: the first key with the
/// last value).
///
/// Each key of such a dictionary that a `String` key cannot tell from another of it is encoded
/// under a placeholder key (the key's own text, then U+0000, a random identifier and a number:
/// no file's key), and ``restoring(in:form:)`` puts the key's own text back in the encoder's
/// output. An encoder that sorts keys by their scalars puts the placeholder where the key
/// itself goes: right after the key, before any longer key that starts with it.
package struct ExactKeyPlaceholders {
  /// A random identifier, in every placeholder.
  private let identifier = UUID().uuidString
  /// The original key of each placeholder, by number.
  private var keys: [String] = []

  /// No placeholders yet.
  package init() {}

  /// `value` with each nested `[PropertyListKey: Any]` turned into a `[String: Any]`, its
  /// colliding keys under placeholders. A value holding none is returned as it is (scalars are
  /// not even looked into).
  package mutating func encodable(_ value: Any) -> Any {
    PropertyListValue.replacingExactDictionaries(in: value) { encodable(dictionary: $0) } ?? value
  }

  /// `dictionary` keyed by `String`, its keys that a `String` cannot tell from an earlier one
  /// under placeholders.
  private mutating func encodable(dictionary: [PropertyListKey: Any]) -> [String: Any] {
    var result: [String: Any] = [:]
    for (key, element) in dictionary {
      var text = key.string
      if result.index(forKey: text) != nil {
        text = placeholder(keys.count, of: key.string)
        keys.append(key.string)
      }
      result[text] = encodable(element)
    }
    return result
  }

  /// `text` (the encoder's output) with each placeholder's `form` (its JSON string) replaced by
  /// its key's, in one pass: the placeholders are found by their identifier, which no form
  /// escapes (a search and a replacement of the whole text for each took minutes for 50,000
  /// keys that differ only in normalization).
  ///
  /// - Parameter form: A key's text in the output (given the key itself).
  /// - Throws: ``PropertyListEncodingFailure`` when a placeholder is not in the text once.
  package func restoring(in text: Data, form: (String) -> String)
    throws(PropertyListEncodingFailure)
    -> Data
  {
    guard !keys.isEmpty else { return text }
    let tag = Data((identifier + "-").utf8)
    var result = Data()
    result.reserveCapacity(text.count)
    var (cursor, restored) = (text.startIndex, 0)
    while let hit = text.range(of: tag, in: cursor..<text.endIndex) {
      var end = hit.upperBound
      while end < text.endIndex, (0x30...0x39).contains(text[end]) { end += 1 }
      guard let number = Int(String(decoding: text[hit.upperBound..<end], as: UTF8.self)),
        keys.indices.contains(number)
      else { throw PropertyListEncodingFailure(reason: "a key's placeholder was written wrong") }
      let written = Data(form(placeholder(number, of: keys[number])).utf8)
      let offset = written.range(of: tag).map { $0.lowerBound - written.startIndex } ?? 0
      let start = hit.lowerBound - offset
      guard start >= cursor, text[start...].starts(with: written) else {
        throw PropertyListEncodingFailure(reason: "the key \"\(keys[number])\" was not written")
      }
      result.append(text[cursor..<start])
      result.append(Data(form(keys[number]).utf8))
      cursor = start + written.count
      restored += 1
    }
    result.append(text[cursor...])
    guard restored == keys.count else {
      throw PropertyListEncodingFailure(reason: "a key was not written")
    }
    return result
  }

  /// The placeholder of `key`, the `number`th key given one.
  private func placeholder(_ number: Int, of key: String) -> String {
    key + "\u{0}" + identifier + "-" + String(number)
  }
}

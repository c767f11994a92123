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
  private let marker = "\u{0}\(UUID().uuidString)-"
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

  /// `text` (the encoder's output) with each placeholder's `form` (its `<key>` element, or its
  /// JSON string) replaced by its key's.
  ///
  /// - Parameter form: A key's text in the output (given the key itself).
  /// - Throws: ``PropertyListEncodingFailure`` when a placeholder is not in the text.
  package func restoring(in text: Data, form: (String) -> String)
    throws(PropertyListEncodingFailure)
    -> Data
  {
    var text = text
    for (number, key) in keys.enumerated() {
      guard let range = text.range(of: Data(form(placeholder(number, of: key)).utf8)) else {
        throw PropertyListEncodingFailure(reason: "the key \"\(key)\" was not written")
      }
      text.replaceSubrange(range, with: Data(form(key).utf8))
    }
    return text
  }

  /// The placeholder of `key`, the `number`th key given one.
  private func placeholder(_ number: Int, of key: String) -> String {
    key + marker + String(number)
  }
}

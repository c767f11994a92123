import Foundation

/// Nested dictionaries keyed by exact keys (`[PropertyListKey: Any]`: two of their keys differ
/// only in Unicode normalization) made writable by Foundation's `PropertyListEncoder`, which keys
/// by `String` and so keeps one of such keys (measured: the first key with the last value).
///
/// Each key of such a dictionary that a `String` key cannot tell from another of it is encoded
/// under a placeholder key (a private-use character, a random identifier and a number: no
/// file's key, and no character XML escapes), and ``restoring(in:)`` puts the key's own text
/// back in the encoder's output.
struct XMLExactKeyPlaceholders {
  private let prefix = "\u{F8FF}\(UUID().uuidString)-"
  /// The original key of each placeholder, by number.
  private var keys: [String] = []

  /// `value` with each nested `[PropertyListKey: Any]` turned into a `[String: Any]`, its
  /// colliding keys under placeholders. A value holding none is returned as it is (scalars are
  /// not even looked into).
  mutating func encodable(_ value: Any) -> Any {
    PropertyListValue.replacingExactDictionaries(in: value) { encodable(dictionary: $0) } ?? value
  }

  /// `dictionary` keyed by `String`, its keys that a `String` cannot tell from an earlier one
  /// under placeholders.
  private mutating func encodable(dictionary: [PropertyListKey: Any]) -> [String: Any] {
    var result: [String: Any] = [:]
    for (key, element) in dictionary {
      var text = key.string
      if result.index(forKey: text) != nil {
        text = prefix + String(keys.count)
        keys.append(key.string)
      }
      result[text] = encodable(element)
    }
    return result
  }

  /// `text` (the encoder's output) with each placeholder's `<key>` holding its key again, with
  /// XML's escapes (`&amp;`, `&lt;`, `&gt;`, and `&#13;` for a carriage return, which a reader
  /// would otherwise turn into a line feed).
  ///
  /// - Throws: ``PropertyListEncodingFailure`` when a placeholder is not in the text.
  func restoring(in text: Data) throws(PropertyListEncodingFailure) -> Data {
    var text = text
    for (number, key) in keys.enumerated() {
      let placeholder = Data("<key>\(prefix)\(number)</key>".utf8)
      guard let range = text.range(of: placeholder) else {
        throw PropertyListEncodingFailure(reason: "the key \"\(key)\" was not written")
      }
      text.replaceSubrange(range, with: Data("<key>\(Self.escaped(key))</key>".utf8))
    }
    return text
  }

  /// `key` as the text of a `<key>` element.
  private static func escaped(_ key: String) -> String {
    var result = ""
    for character in key.unicodeScalars {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\r": result += "&#13;"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }
}

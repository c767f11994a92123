import Foundation

/// The object keys of a JSON text exactly as written. `JSONSerialization` keys its dictionaries
/// by `String`, which compares by canonical equivalence, so it keeps one of two keys that differ
/// only in Unicode normalization (`é` as U+00E9 and as `e` U+0301); python's `json` keeps both.
///
/// Every object key of the text is replaced by its number (`"0"`, `"1"`, … in the order of the
/// text) in ``numbered``, which `JSONSerialization` parses without merging anything, and
/// ``keys`` holds each key's own text, decoded by `JSONSerialization` from an array of the keys'
/// JSON strings (escapes such as `\u00e9` included). The integer literals a property list holds
/// and `JSONSerialization` does not read as integers are found in the same scan
/// (``minimumInteger``, ``integersOutOfRange``).
struct JSONExactKeys {
  /// The text with every object key replaced by its number.
  let numbered: Data
  /// Each key's text, by number.
  let keys: [String]
  /// What ``numbered`` holds, as a JSON string, in place of each integer literal
  /// `-9223372036854775808`, which `JSONSerialization` reads as a real (``JSONIntegerLiteral``):
  /// a NUL and a random identifier, which no string of the text holds.
  let minimumInteger = "\u{0}" + UUID().uuidString
  /// The places in the text of the integer literals beyond what a property list holds
  /// (``JSONIntegerLiteral/outOfRange``), in the order of the text.
  let integersOutOfRange: [Range<Int>]

  /// The keys of `text`.
  ///
  /// - Parameter text: A JSON text that `JSONSerialization` parsed (an unterminated string ends
  ///   the scan, so any text is safe).
  /// - Throws: What `JSONSerialization` throws for the keys' array (nothing, for a valid text).
  init(_ text: Data) throws {
    let (quote, backslash, colon) = (UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: ":"))
    let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
    let bytes = [UInt8](text)
    var numbered = Data(capacity: bytes.count)
    var keyList = Data("[".utf8)
    var (count, copied, index) = (0, 0, 0)
    var outOfRange: [Range<Int>] = []
    while index < bytes.count {
      guard bytes[index] == quote else {
        let start = index
        while index < bytes.count, JSONIntegerLiteral.isNumberByte(bytes[index]) { index += 1 }
        guard index > start else {
          index += 1
          continue
        }
        switch JSONIntegerLiteral(bytes[start..<index]) {
        case .minimum:
          numbered.append(contentsOf: bytes[copied..<start])
          numbered.append(contentsOf: "\"\\u0000\(minimumInteger.dropFirst())\"".utf8)
          copied = index
        case .outOfRange: outOfRange.append(start..<index)
        case .held, nil: break
        }
        continue
      }
      let start = index
      index += 1
      while index < bytes.count, bytes[index] != quote {
        index += bytes[index] == backslash ? 2 : 1
      }
      index = min(index + 1, bytes.count)
      var next = index
      while next < bytes.count, blanks.contains(bytes[next]) { next += 1 }
      // A string followed by a colon is an object's key.
      guard next < bytes.count, bytes[next] == colon else { continue }
      numbered.append(contentsOf: bytes[copied..<start])
      numbered.append(contentsOf: "\"\(count)\"".utf8)
      if count > 0 { keyList.append(UInt8(ascii: ",")) }
      keyList.append(contentsOf: bytes[start..<index])
      (count, copied) = (count + 1, index)
    }
    numbered.append(contentsOf: bytes[copied...])
    keyList.append(UInt8(ascii: "]"))
    self.numbered = numbered
    integersOutOfRange = outOfRange
    keys = try JSONSerialization.jsonObject(with: keyList) as? [String] ?? []
  }

  /// The entries of `dictionary` (parsed from ``numbered``) under their own keys, in the
  /// order of the text: of two keys with the same scalars, the later one's entry comes last.
  func entries(of dictionary: [String: Any]) -> [(key: String, value: Any)] {
    dictionary.compactMap { number, value in Int(number).map { (index: $0, value: value) } }
      .sorted { $0.index < $1.index }
      .compactMap { keys.indices.contains($0.index) ? (keys[$0.index], $0.value) : nil }
  }
}

import Foundation

/// The object keys of a JSON text exactly as written. `JSONSerialization` keys its dictionaries
/// by `String`, which compares by canonical equivalence, so it keeps one of two keys that differ
/// only in Unicode normalization (`é` as U+00E9 and as `e` U+0301); python's `json` keeps both.
///
/// Every object key of the text is replaced by its number (`"0"`, `"1"`, … in the order of the
/// text) in ``numbered``, which `JSONSerialization` parses without merging anything, and
/// ``keys`` holds each key's own text, decoded by `JSONSerialization` from an array of the keys'
/// JSON strings (escapes such as `\u00e9` included).
///
/// Every number in a value's place is replaced too, by a string of ``numberMarker`` and its
/// position in ``numbers`` (where it is in the text), which ``JSONNumberLiteral`` reads exactly
/// where `JSONSerialization` did not. A number where no value can be (a key), or not by JSON's
/// grammar, is left as it is, for the parser to refuse.
struct JSONExactKeys {
  /// The text with every object key replaced by its number, and every number by a marked
  /// string.
  let numbered: Data
  /// Each key's text, by number.
  let keys: [String]
  /// Starts each string ``numbered`` holds in place of a number, followed by the number's
  /// position in ``numbers``: a NUL and a random identifier, which no string of the text holds.
  let numberMarker = "\u{0}" + UUID().uuidString + "#"
  /// Where each number replaced is in ``text`` (byte offsets), in the order of the text.
  let numbers: [Range<Int>]
  /// The text.
  let text: Data

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
    var numbers: [Range<Int>] = []
    // Whether each open container is an object (else an array), and the last byte outside
    // strings and blanks: a value's place is after `:` in an object, after `[` or `,` in an array.
    var inObject: [Bool] = []
    var last: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == quote else {
        let start = index
        while index < bytes.count, JSONNumberLiteral.isNumberByte(bytes[index]) { index += 1 }
        guard index == start else {
          let isValuePlace =
            inObject.last.map {
              $0 ? last == colon : last == UInt8(ascii: "[") || last == UInt8(ascii: ",")
            }
            ?? false
          if isValuePlace, JSONNumberLiteral.isValid(bytes[start..<index]) {
            numbered.append(contentsOf: bytes[copied..<start])
            numbered.append(
              contentsOf: "\"\\u0000\(numberMarker.dropFirst())\(numbers.count)\"".utf8)
            numbers.append(start..<index)
            copied = index
          }
          last = bytes[index - 1]
          continue
        }
        switch byte {
        case UInt8(ascii: "{"): inObject.append(true)
        case UInt8(ascii: "["): inObject.append(false)
        case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = inObject.popLast()
        default: break
        }
        if !blanks.contains(byte) { last = byte }
        index += 1
        continue
      }
      let start = index
      index += 1
      while index < bytes.count, bytes[index] != quote {
        index += bytes[index] == backslash ? 2 : 1
      }
      index = min(index + 1, bytes.count)
      last = quote
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
    self.numbers = numbers
    self.text = text
    keys = try JSONSerialization.jsonObject(with: keyList) as? [String] ?? []
  }

  /// Where in ``text`` the number is that `string` (a string parsed from ``numbered``) stands
  /// for, when it is one's marked string.
  func number(_ string: String) -> Range<Int>? {
    guard string.hasPrefix(numberMarker),
      let position = Int(string.dropFirst(numberMarker.count)), numbers.indices.contains(position)
    else { return nil }
    return numbers[position]
  }

  /// The entries of `dictionary` (parsed from ``numbered``) under their own keys, in the
  /// order of the text: of two keys with the same scalars, the later one's entry comes last.
  func entries(of dictionary: [String: Any]) -> [(key: String, value: Any)] {
    dictionary.compactMap { number, value in Int(number).map { (index: $0, value: value) } }
      .sorted { $0.index < $1.index }
      .compactMap { keys.indices.contains($0.index) ? (keys[$0.index], $0.value) : nil }
  }
}

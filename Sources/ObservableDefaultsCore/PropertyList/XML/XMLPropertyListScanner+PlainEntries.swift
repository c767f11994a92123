import Foundation

/// The fast path of the top dictionary: an entry written in the plain form writers produce
/// (white space, `<key>…</key>`, white space, then `<string>…</string>`, `<integer>…</integer>`,
/// `<real>…</real>`, `<date>…</date>`, `<data>…</data>`, `<true/>` or `<false/>`) is read with a
/// few word compares and one pass over each text, instead of the general walk of tags and
/// content (``content()``, ``startTag()``, ``text(of:always:)``, ``closeTag(_:)``: about 2,000
/// instructions an entry, 96 % of a one-shot write at 100,000 keys; this path: about 850).
///
/// It takes an entry whole or not at all, and only one the general walk would take with the same
/// result: the same elements counted against the budget, the same key and value (or the same
/// check of one not built), the same places. Anything else (a comment, a processing instruction,
/// a nested dictionary or array, an empty `<key/>` or `<string/>`, a CDATA section, a reference,
/// a carriage return, white space inside a tag or around a number, text that is not UTF-8, a
/// value the checks refuse, an element count at the limit) is left to the general walk from the
/// entry's start, which reads it (or refuses it, with its own reason and line); the fast path
/// tries again at the next entry. So it never changes a verdict, a refusal, a value or a total;
/// the fuzzer's read mode compares both on every XML input (``XMLPropertyListFastPath``).
extension XMLPropertyListScanner {
  /// An entry the fast path read, not yet taken.
  struct PlainEntry {
    /// Where its `<key>` element starts.
    let start: Int
    /// Where its key's text is.
    let key: Range<Int>
    /// The key, when building.
    let keyString: String?
    /// Where its value element is.
    let value: Range<Int>
    /// The value element's name.
    let element: ElementName
    /// The value, when building (else `()`).
    let built: Any
    /// The text of a `<data>` value left unchecked (``defersTopData``).
    let deferred: Range<Int>?
  }

  /// The entry after the white space at ``position``, when it is in the plain form and passes
  /// every check (see above); nil leaves everything as it was.
  func plainEntry() -> PlainEntry? {
    guard let base = bytes.baseAddress else { return nil }
    var index = position
    while index < bytes.count, Self.isSpace(base.load(fromByteOffset: index, as: UInt8.self)) {
      index += 1
    }
    let start = index
    guard XMLLiteral.key.isAt(index, in: bytes),
      let (key, keyString) = plainText(from: index + 5),
      XMLLiteral.keyEnd.isAt(key.upperBound, in: bytes)
    else { return nil }
    index = key.upperBound + 6
    while index < bytes.count, Self.isSpace(base.load(fromByteOffset: index, as: UInt8.self)) {
      index += 1
    }
    guard let (element, built, end, deferred) = plainValue(at: index) else { return nil }
    return PlainEntry(
      start: start, key: key, keyString: keyString, value: index..<end, element: element,
      built: built, deferred: deferred)
  }

  /// The value element at `index` in the plain form: its name, value (when building), end and
  /// the text of a `<data>` value left unchecked.
  private func plainValue(at index: Int) -> (ElementName, Any, Int, Range<Int>?)? {
    guard index + 1 < bytes.count else { return nil }
    switch bytes[index + 1] {
    case UInt8(ascii: "s"):
      guard XMLLiteral.string.isAt(index, in: bytes),
        let (text, string) = plainText(from: index + 8),
        XMLLiteral.stringEnd.isAt(text.upperBound, in: bytes)
      else { return nil }
      return (.string, string ?? (), text.upperBound + 9, nil)
    case UInt8(ascii: "t"):
      guard XMLLiteral.true.isAt(index, in: bytes) else { return nil }
      return (.true, building ? true : (), index + 7, nil)
    case UInt8(ascii: "f"):
      guard XMLLiteral.false.isAt(index, in: bytes) else { return nil }
      return (.false, building ? false : (), index + 8, nil)
    case UInt8(ascii: "i"):
      guard XMLLiteral.integer.isAt(index, in: bytes), let (text, end) = scalarText(index + 9),
        XMLLiteral.integerEnd.isAt(end, in: bytes), let value = Self.plainInteger(text)
      else { return nil }
      return (.integer, building ? value : (), end + 10, nil)
    case UInt8(ascii: "r"):
      guard XMLLiteral.real.isAt(index, in: bytes), let (text, end) = scalarText(index + 6),
        XMLLiteral.realEnd.isAt(end, in: bytes), let value = Self.plainReal(text)
      else { return nil }
      return (.real, building ? value : (), end + 7, nil)
    case UInt8(ascii: "d"):
      return plainDateOrData(at: index)
    default:
      return nil
    }
  }

  /// The `<date>` or `<data>` element at `index` in the plain form.
  private func plainDateOrData(at index: Int) -> (ElementName, Any, Int, Range<Int>?)? {
    if XMLLiteral.date.isAt(index, in: bytes) {
      guard let (text, end) = scalarText(index + 6), XMLLiteral.dateEnd.isAt(end, in: bytes),
        XMLScalarText.isDate(String(decoding: text, as: UTF8.self))
      else { return nil }
      return (.date, building ? Self.date(text) : (), end + 7, nil)
    }
    guard XMLLiteral.data.isAt(index, in: bytes), let (text, end) = scalarText(index + 6),
      XMLLiteral.dataEnd.isAt(end, in: bytes)
    else { return nil }
    if building {
      guard let data = Base64Text.decode(text) else { return nil }
      return (.data, data, end + 7, nil)
    }
    if defersTopData { return (.data, (), end + 7, (index + 6)..<end) }
    guard XMLScalarText.isBase64(text) else { return nil }
    return (.data, (), end + 7, nil)
  }

  /// The text from `start` to the next `<` (as ``scalar(_:deferring:)`` finds it), and where it
  /// ends.
  private func scalarText(_ start: Int) -> (UnsafeRawBufferPointer, Int)? {
    guard let end = find(UInt8(ascii: "<"), from: start) else { return nil }
    return (UnsafeRawBufferPointer(rebasing: bytes[start..<end]), end)
  }

  /// The text of a `<key>` or `<string>` element from `start`, when it is plain (ends at a `<`,
  /// holds no `&` and no carriage return) and UTF-8: where it is, and its string when building.
  /// Eight bytes at a time: the first `<`, `&` or carriage return of a word is found with the
  /// usual zero-byte test, exact for the lowest byte it flags.
  private func plainText(from start: Int) -> (Range<Int>, String?)? {
    let base = bytes.baseAddress!
    var index = start
    var high: UInt64 = 0
    var end: Int?
    while index + 8 <= bytes.count {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let stops =
        Self.zeroBytes(word ^ 0x3C3C_3C3C_3C3C_3C3C) | Self.zeroBytes(word ^ 0x2626_2626_2626_2626)
        | Self.zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
      if stops != 0 {
        let before = stops.trailingZeroBitCount / 8
        high |= before == 0 ? 0 : word & (UInt64.max >> (64 - 8 * before))
        end = index + before
        break
      }
      high |= word
      index += 8
    }
    if end == nil {
      while index < bytes.count {
        let byte = base.load(fromByteOffset: index, as: UInt8.self)
        if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == 0x0D { break }
        high |= UInt64(byte)
        index += 1
      }
      end = index
    }
    guard let end, end < bytes.count, bytes[end] == UInt8(ascii: "<") else { return nil }
    let text = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    if high & 0x8080_8080_8080_8080 == 0 {
      return (start..<end, building ? String(decoding: text, as: UTF8.self) : nil)
    }
    if building {
      guard let string = Self.validString(text) else { return nil }
      return (start..<end, string)
    }
    return Self.isUTF8(text) ? (start..<end, nil) : nil
  }

  /// A byte's high bit set where a byte of `word` is zero: exact for the lowest one.
  @inline(__always)
  private static func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
  }

  /// An `<integer>` text in the form the fast path takes: an optional `-` and 1 to 18 decimal
  /// digits (always within range), nothing else; its value.
  private static func plainInteger(_ text: UnsafeRawBufferPointer) -> Int? {
    let negative = text.first == UInt8(ascii: "-")
    let digits = negative ? text.dropFirst() : text[...]
    guard (1...18).contains(digits.count) else { return nil }
    var value = 0
    for byte in digits {
      guard byte &- UInt8(ascii: "0") < 10 else { return nil }
      value = value * 10 + Int(byte &- UInt8(ascii: "0"))
    }
    return negative ? -value : value
  }

  /// A `<real>` text in the form the fast path takes: 1 to 40 bytes of digits, signs, points and
  /// exponents that `Double` reads (what ``scalar(_:deferring:)`` takes without leading white
  /// space or a name); its value.
  private static func plainReal(_ text: UnsafeRawBufferPointer) -> Double? {
    guard (1...40).contains(text.count),
      text.allSatisfy({
        $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
          || $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e")
      })
    else { return nil }
    return Double(String(decoding: text, as: UTF8.self))
  }
}

/// A tag of at most 16 bytes compared with two word loads and masks, not a `memcmp` call.
struct XMLLiteral {
  private let count: Int
  private let low: UInt64
  private let lowMask: UInt64
  private let high: UInt64
  private let highMask: UInt64

  init(_ text: StaticString) {
    count = text.utf8CodeUnitCount
    var words: [UInt64] = [0, 0]
    var masks: [UInt64] = [0, 0]
    for index in 0..<count {
      words[index / 8] |= UInt64(text.utf8Start[index]) << (8 * (index % 8))
      masks[index / 8] |= 0xFF << (8 * (index % 8))
    }
    (low, high, lowMask, highMask) = (words[0], words[1], masks[0], masks[1])
  }

  /// Whether `bytes` hold this literal at `offset`.
  @inline(__always)
  func isAt(_ offset: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
    guard offset >= 0, bytes.count - offset >= 16, let base = bytes.baseAddress else {
      return offset >= 0 && bytes.count - offset >= count
        && (0..<count).allSatisfy { bytes[offset + $0] == byte(at: $0) }
    }
    let first = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    let second = UInt64(
      littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
    return first & lowMask == low && second & highMask == high
  }

  /// The literal's byte at `index`.
  private func byte(at index: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: (index < 8 ? low : high) >> (8 * (index % 8)))
  }

  static let key = XMLLiteral("<key>")
  static let keyEnd = XMLLiteral("</key>")
  static let string = XMLLiteral("<string>")
  static let stringEnd = XMLLiteral("</string>")
  static let integer = XMLLiteral("<integer>")
  static let integerEnd = XMLLiteral("</integer>")
  static let real = XMLLiteral("<real>")
  static let realEnd = XMLLiteral("</real>")
  static let date = XMLLiteral("<date>")
  static let dateEnd = XMLLiteral("</date>")
  static let data = XMLLiteral("<data>")
  static let dataEnd = XMLLiteral("</data>")
  static let `true` = XMLLiteral("<true/>")
  static let `false` = XMLLiteral("<false/>")
}

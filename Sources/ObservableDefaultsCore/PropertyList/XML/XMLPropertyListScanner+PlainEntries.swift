import Foundation

/// The fast path of the top dictionary: an entry written in the plain form writers produce
/// (white space, `<key>…</key>`, white space, then `<string>…</string>`, `<integer>…</integer>`,
/// `<real>…</real>`, `<date>…</date>`, `<data>…</data>`, `<true/>` or `<false/>`) is read with a
/// few word compares and one pass over each text, instead of the general walk of tags and
/// content (``content()``, ``startTag()``, ``text(of:always:)``, ``closeTag(_:)``: about 2,000
/// instructions an entry, 96 % of a one-shot write at 100,000 keys).
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
///
/// What it reads is places only (``PlainEntry``, nothing to copy or release); a scan that
/// builds makes the key and value from them afterwards (``builtEntry(_:)``), which checks
/// what it builds.
///
/// It reads through a ``PlainEntryReader`` made once per dictionary, three words passed in
/// registers: called on the scanner itself, each entry copied the scanner's 176 bytes first
/// (a `memcpy` call, and loads that waited on its stores).
extension XMLPropertyListScanner {
  /// An entry the fast path read, not yet taken.
  struct PlainEntry {
    /// Where its `<key>` element starts.
    let start: Int
    /// Where its key's text is.
    let key: Range<Int>
    /// Whether its key's text is ASCII.
    let isASCIIKey: Bool
    /// Where its value element is.
    let value: Range<Int>
    /// The value element's name.
    let element: ElementName
    /// Where the value element's text is (empty for `<true/>` and `<false/>`).
    let text: Range<Int>
    /// Whether the value element's text is ASCII.
    let isASCIIText: Bool
  }

  /// The fast path's reader of this scan's text.
  var plainEntryReader: PlainEntryReader {
    PlainEntryReader(bytes: bytes, building: building, defersTopData: defersTopData)
  }

  /// What the fast path needs of the scanner: the text and how the scan reads it.
  struct PlainEntryReader {
    /// The whole text.
    let bytes: UnsafeRawBufferPointer
    /// Whether the scan builds values (it checks their texts as it builds them).
    let building: Bool
    /// Whether the scan checks the top dictionary's `<data>` texts later.
    let defersTopData: Bool

    /// The entry after the white space at `position`, when it is in the plain form and passes
    /// every check but those a scan that builds makes as it builds (see above); nil when not.
    @inline(__always)
    func entry(at position: Int) -> PlainEntry? {
      let start = afterSpace(position)
      guard XMLLiteral.key.isAt(start, in: bytes),
        let (keyEnd, isASCIIKey) = plainText(from: start + 5),
        XMLLiteral.keyEnd.isAt(keyEnd, in: bytes)
      else { return nil }
      let index = afterSpace(keyEnd + 6)
      guard let (element, text, isASCIIText, end) = plainValue(at: index) else { return nil }
      return PlainEntry(
        start: start, key: (start + 5)..<keyEnd, isASCIIKey: isASCIIKey, value: index..<end,
        element: element, text: text, isASCIIText: isASCIIText)
    }

    /// The first position from `index` that is not white space.
    @inline(__always)
    private func afterSpace(_ index: Int) -> Int {
      var index = index
      while index < bytes.count, XMLPropertyListScanner.isSpace(bytes[index]) { index += 1 }
      return index
    }

    /// The value element at `index` in the plain form: its name, text (and whether that is
    /// ASCII) and end. Its text is checked here unless building (``builtEntry(_:)`` checks it).
    @inline(__always)
    private func plainValue(at index: Int) -> (ElementName, Range<Int>, Bool, Int)? {
      guard index + 1 < bytes.count else { return nil }
      switch bytes[index + 1] {
      case UInt8(ascii: "s"):
        guard XMLLiteral.string.isAt(index, in: bytes),
          let (end, isASCII) = plainText(from: index + 8),
          XMLLiteral.stringEnd.isAt(end, in: bytes)
        else { return nil }
        return (.string, (index + 8)..<end, isASCII, end + 9)
      case UInt8(ascii: "t"):
        guard XMLLiteral.true.isAt(index, in: bytes) else { return nil }
        return (.true, index..<index, true, index + 7)
      case UInt8(ascii: "f"):
        guard XMLLiteral.false.isAt(index, in: bytes) else { return nil }
        return (.false, index..<index, true, index + 8)
      case UInt8(ascii: "i"):
        guard XMLLiteral.integer.isAt(index, in: bytes),
          let end = XMLPropertyListScanner.find(UInt8(ascii: "<"), in: bytes, from: index + 9),
          XMLLiteral.integerEnd.isAt(end, in: bytes),
          building || Self.plainInteger(text(index + 9, end)) != nil
        else { return nil }
        return (.integer, (index + 9)..<end, true, end + 10)
      case UInt8(ascii: "r"):
        guard XMLLiteral.real.isAt(index, in: bytes),
          let end = XMLPropertyListScanner.find(UInt8(ascii: "<"), in: bytes, from: index + 6),
          XMLLiteral.realEnd.isAt(end, in: bytes),
          building || Self.plainReal(text(index + 6, end)) != nil
        else { return nil }
        return (.real, (index + 6)..<end, true, end + 7)
      case UInt8(ascii: "d"):
        return plainDateOrData(at: index)
      default:
        return nil
      }
    }

    /// The `<date>` or `<data>` element at `index` in the plain form.
    private func plainDateOrData(at index: Int) -> (ElementName, Range<Int>, Bool, Int)? {
      let element: ElementName
      if XMLLiteral.date.isAt(index, in: bytes) {
        element = .date
      } else if XMLLiteral.data.isAt(index, in: bytes) {
        element = .data
      } else {
        return nil
      }
      guard let end = XMLPropertyListScanner.find(UInt8(ascii: "<"), in: bytes, from: index + 6),
        (element == .date ? XMLLiteral.dateEnd : XMLLiteral.dataEnd).isAt(end, in: bytes)
      else { return nil }
      let text = self.text(index + 6, end)
      switch element {
      case .date:
        guard building || XMLScalarText.date(text) != nil else {
          return nil
        }
      default:
        // A scan that builds decodes it (which checks it); a deferred one is checked later.
        guard building || defersTopData || XMLScalarText.isBase64(text) else { return nil }
      }
      return (element, (index + 6)..<end, true, end + 7)
    }

    /// The bytes from `start` to `end`.
    @inline(__always)
    private func text(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// The key and value of `entry`, built (a scan that builds), or nil when a check made as they
    /// are built refuses them: text that is not UTF-8, a value that is not of its type.
    func builtEntry(_ entry: PlainEntry) -> (key: String, value: Any)? {
      guard let key = string(entry.key, isASCII: entry.isASCIIKey) else { return nil }
      let text = self.text(entry.text.lowerBound, entry.text.upperBound)
      let value: Any?
      switch entry.element {
      case .string: value = string(entry.text, isASCII: entry.isASCIIText)
      case .true: value = true
      case .false: value = false
      case .integer: value = Self.plainInteger(text)
      case .real: value = Self.plainReal(text)
      case .date:
        value = XMLScalarText.date(text)
      default: value = Base64Text.decode(text)
      }
      return value.map { (key, $0) }
    }

    /// The string of the text at `range`, nil when it is not UTF-8.
    private func string(_ range: Range<Int>, isASCII: Bool) -> String? {
      let text = self.text(range.lowerBound, range.upperBound)
      return isASCII
        ? String(decoding: text, as: UTF8.self) : XMLPropertyListScanner.validString(text)
    }

    /// Where the text of a `<key>` or `<string>` element from `start` ends, when it is plain (ends
    /// at a `<`, holds no `&` and no carriage return), and whether it is ASCII; text that is not
    /// is checked as UTF-8 here unless building (``builtEntry(_:)`` checks it).
    ///
    /// Eight bytes at a time: the first `<`, `&` or carriage return of a word is found with the
    /// usual zero-byte test, exact for the lowest byte it flags, and the word's high bits are
    /// gathered in the same loop.
    @inline(__always)
    private func plainText(from start: Int) -> (end: Int, isASCII: Bool)? {
      guard let base = bytes.baseAddress, start <= bytes.count else { return nil }
      var index = start
      var high: UInt64 = 0
      var end = -1
      while index &+ 8 <= bytes.count {
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let stops =
          Self.zeroBytes(word ^ 0x3C3C_3C3C_3C3C_3C3C)
          | Self.zeroBytes(word ^ 0x2626_2626_2626_2626)
          | Self.zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
        if stops != 0 {
          let before = stops.trailingZeroBitCount &>> 3
          high |= word & ~(UInt64.max &<< (8 &* UInt64(before)))
          end = index &+ before
          break
        }
        high |= word
        index &+= 8
      }
      if end < 0 {
        while index < bytes.count {
          let byte = base.load(fromByteOffset: index, as: UInt8.self)
          if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == 0x0D { break }
          high |= UInt64(byte)
          index &+= 1
        }
        end = index
      }
      guard end < bytes.count, base.load(fromByteOffset: end, as: UInt8.self) == UInt8(ascii: "<")
      else { return nil }
      let isASCII = high & 0x8080_8080_8080_8080 == 0
      guard isASCII || building || XMLPropertyListScanner.isUTF8(text(start, end)) else {
        return nil
      }
      return (end, isASCII)
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
}

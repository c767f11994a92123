import Foundation

/// Tags, the markup between elements, and the text of `<key>` and `<string>` elements.
extension XMLPropertyListScanner {
  /// The elements of a property list; every other name is `other`.
  enum ElementName: String {
    case plist, dict, array, key, string, integer, real, date, data, `true`, `false`, other
  }

  /// A start tag just read.
  struct Tag {
    let name: ElementName
    /// Whether it ends with `/>`.
    let isEmpty: Bool
    /// Where its name is written (for messages: ``XMLPropertyListScanner/nameText(of:)``;
    /// making a `String` of every tag's name was a tenth of checking a large file).
    let nameRange: Range<Int>
  }

  /// The name of `tag` as written (at most 40 bytes), for messages.
  func nameText(of tag: Tag) -> String {
    guard tag.name == .other else { return tag.name.rawValue }
    let range = tag.nameRange
    return String(
      decoding: bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + 40)],
      as: UTF8.self)
  }

  /// What ``content()`` stopped at.
  enum Content { case start, end, none }

  /// The text of a `<key>` or `<string>` element, read.
  struct Text {
    /// The text with its references and CDATA sections replaced (when building; else empty).
    let string: String
    /// Where the text is in the file's bytes.
    let raw: Range<Int>
    /// Whether the raw text is the text itself: no reference, CDATA section or carriage return.
    let isPlain: Bool
  }

  /// Skips white space, comments and processing instructions; stops at a start tag (`.start`),
  /// an end tag (`.end`) or the end of the bytes (`.none`), and notes in ``skippedOnlySpace``
  /// whether anything but white space was skipped.
  ///
  /// - Throws: ``PropertyListRejection`` for text or other markup.
  mutating func content() throws(PropertyListRejection) -> Content {
    skippedOnlySpace = true
    while true {
      while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
      guard position < bytes.count else { return .none }
      guard bytes[position] == UInt8(ascii: "<"), position + 1 < bytes.count else {
        throw rejection("text stands where an element belongs")
      }
      switch bytes[position + 1] {
      case UInt8(ascii: "/"): return .end
      case UInt8(ascii: "?"):
        try skip(past: "?>", from: position + 2, what: "a processing instruction")
      case UInt8(ascii: "!") where starts(with: "<!--", at: position):
        try skip(past: "-->", from: position + 4, what: "a comment")
      case UInt8(ascii: "!") where starts(with: "<!DOCTYPE", at: position):
        try skipDocumentType()
      case UInt8(ascii: "!"): throw rejection("<! stands where an element belongs")
      default: return .start
      }
      skippedOnlySpace = false
    }
  }

  /// Reads the start tag at ``position`` (CoreFoundation's `parseXMLElement`: the name ends at
  /// white space or `>`; attributes are skipped) and counts it.
  mutating func startTag() throws(PropertyListRejection) -> Tag {
    let nameStart = position + 1
    guard let close = find(UInt8(ascii: ">"), from: nameStart) else {
      throw rejection("a tag is not closed")
    }
    let isEmpty = bytes[close - 1] == UInt8(ascii: "/")
    var nameEnd = nameStart
    while nameEnd < close, !Self.isSpace(bytes[nameEnd]) { nameEnd += 1 }
    if nameEnd == close, isEmpty { nameEnd -= 1 }
    guard nameEnd > nameStart else { throw rejection("a tag has no name") }
    try countElement()
    position = close + 1
    let name = self.name(nameStart..<nameEnd)
    return Tag(name: name, isEmpty: isEmpty, nameRange: nameStart..<nameEnd)
  }

  /// Reads the end tag `</name>` (white space allowed before `>`) at ``position``.
  mutating func closeTag(_ name: StaticString) throws(PropertyListRejection) {
    let nameStart = position + 2
    guard starts(with: "</", at: position), starts(with: name, at: nameStart) else {
      throw rejection("</\(name)> is missing")
    }
    var index = nameStart + name.utf8CodeUnitCount
    while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
      throw rejection("</\(name)> is missing")
    }
    position = index + 1
  }

  /// The text of the `<key>` or `<string>` element whose start tag was just read, up to its end
  /// tag, which it reads; its string is made when building, or when `always`.
  mutating func text(of element: ElementName, always: Bool = false) throws(PropertyListRejection)
    -> Text
  {
    let making = building || always
    let start = position
    guard let end = find(UInt8(ascii: "<"), from: position) else {
      throw rejection("<\(element.rawValue)> is not closed")
    }
    let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    let isPlain =
      (end + 1 >= bytes.count || bytes[end + 1] != UInt8(ascii: "!"))
      && !Self.holds(UInt8(ascii: "&"), raw) && !Self.holds(0x0D, raw)
    let string: String
    if isPlain {
      position = end
      string = try self.string(raw, making: making)
    } else {
      string = try decodedText(making: making)
    }
    let textEnd = position
    try closeTag(element == .key ? "key" : element == .real ? "real" : "string")
    return Text(string: string, raw: start..<textEnd, isPlain: isPlain)
  }

  /// `text` as a `String` when `making` (else only checked): it must be UTF-8.
  func string(_ text: UnsafeRawBufferPointer, making: Bool) throws(PropertyListRejection)
    -> String
  {
    if making {
      guard let string = XMLPropertyListScanner.validString(text) else {
        throw rejection("a string is not UTF-8")
      }
      return string
    }
    guard Self.isUTF8(text) else { throw rejection("a string is not UTF-8") }
    return ""
  }

  /// The text from ``position`` to the next tag, with references and CDATA sections replaced;
  /// line ends are kept as written (see ``XMLPropertyListScanner``).
  private mutating func decodedText(making: Bool) throws(PropertyListRejection) -> String {
    var output: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "<"):
        guard starts(with: "<![CDATA[", at: position) else {
          let string = output.withUnsafeBytes {
            making ? Self.validString($0) : Self.isUTF8($0) ? "" : nil
          }
          guard let string else { throw rejection("a string is not UTF-8") }
          return string
        }
        let start = position + 9
        try skip(past: "]]>", from: start, what: "a CDATA section")
        output.append(contentsOf: bytes[start..<(position - 3)])
      case UInt8(ascii: "&"):
        try appendReference(to: &output)
      default:
        output.append(byte)
        position += 1
      }
    }
    throw rejection("a string is not closed")
  }

  /// Replaces the reference at ``position`` (`&`): XML's five predefined entities, or a decimal
  /// or hexadecimal (`&#x…;`) character reference of at most eight digits, as CoreFoundation's
  /// `parseEntityReference_pl` reads them.
  private mutating func appendReference(to output: inout [UInt8]) throws(PropertyListRejection) {
    let names: [(StaticString, UInt8)] = [
      ("&lt;", UInt8(ascii: "<")), ("&gt;", UInt8(ascii: ">")), ("&amp;", UInt8(ascii: "&")),
      ("&quot;", UInt8(ascii: "\"")), ("&apos;", UInt8(ascii: "'")),
    ]
    for (name, byte) in names where starts(with: name, at: position) {
      output.append(byte)
      position += name.utf8CodeUnitCount
      return
    }
    guard starts(with: "&#", at: position) else { throw rejection("an unknown entity is used") }
    let isHex = position + 2 < bytes.count && bytes[position + 2] == UInt8(ascii: "x")
    var index = position + (isHex ? 3 : 2)
    var value: UInt32 = 0
    let digitsStart = index
    while index < bytes.count, bytes[index] != UInt8(ascii: ";"), index - digitsStart < 8 {
      guard let digit = Self.digit(bytes[index], hex: isHex) else { break }
      value = value * (isHex ? 16 : 10) + digit
      index += 1
    }
    guard index > digitsStart, index < bytes.count, bytes[index] == UInt8(ascii: ";"),
      let scalar = Unicode.Scalar(value)
    else { throw rejection("a character reference is not a character") }
    output.append(contentsOf: String(Character(scalar)).utf8)
    position = index + 1
  }

  private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// Skips a `<!DOCTYPE …>` declaration at ``position``; one with an internal subset (`[`) is
  /// refused, as CoreFoundation's `skipDTD` refuses it.
  private mutating func skipDocumentType() throws(PropertyListRejection) {
    var index = position + 9
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: ">"):
        position = index + 1
        return
      case UInt8(ascii: "["):
        throw rejection("a document type with an internal subset is not taken")
      default: index += 1
      }
    }
    throw rejection("the document type is not closed")
  }

  /// Moves past the next `terminator` from `start`.
  private mutating func skip(past terminator: StaticString, from start: Int, what: String)
    throws(PropertyListRejection)
  {
    var index = start
    while let candidate = find(terminator.utf8Start.pointee, from: index) {
      if starts(with: terminator, at: candidate) {
        position = candidate + terminator.utf8CodeUnitCount
        return
      }
      index = candidate + 1
    }
    throw rejection("\(what) is not closed")
  }

  /// The element named by the bytes of `range`, compared with `memcmp`.
  private func name(_ range: Range<Int>) -> ElementName {
    func matches(_ literal: StaticString) -> Bool {
      range.count == literal.utf8CodeUnitCount && starts(with: literal, at: range.lowerBound)
    }
    switch range.count {
    case 3: return matches("key") ? .key : .other
    case 4:
      if matches("dict") { return .dict }
      if matches("real") { return .real }
      if matches("date") { return .date }
      if matches("data") { return .data }
      return matches("true") ? .true : .other
    case 5:
      if matches("array") { return .array }
      if matches("plist") { return .plist }
      return matches("false") ? .false : .other
    case 6: return matches("string") ? .string : .other
    case 7: return matches("integer") ? .integer : .other
    default: return .other
    }
  }

  /// Whether the text at `offset` starts with `literal` (compared with `memcmp`).
  func starts(with literal: StaticString, at offset: Int) -> Bool {
    let count = literal.utf8CodeUnitCount
    return offset >= 0 && bytes.count - offset >= count
      && memcmp(bytes.baseAddress! + offset, literal.utf8Start, count) == 0
  }

  /// The offset of the next `byte` from `index`.
  func find(_ byte: UInt8, from index: Int) -> Int? {
    Self.find(byte, in: bytes, from: index)
  }

  /// The offset in `bytes` of the next `byte` from `index` (found with `memchr`).
  static func find(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from index: Int) -> Int? {
    guard index < bytes.count, let base = bytes.baseAddress,
      let found = memchr(base + index, Int32(byte), bytes.count - index)
    else { return nil }
    return base.distance(to: UnsafeRawPointer(found))
  }

  /// Whether `text` holds `byte` (found with `memchr`).
  private static func holds(_ byte: UInt8, _ text: UnsafeRawBufferPointer) -> Bool {
    guard let base = text.baseAddress else { return false }
    return memchr(base, Int32(byte), text.count) != nil
  }

  /// The text of `bytes` when they are valid UTF-8 (decoded through the contiguous fast path,
  /// then compared with the bytes: a repaired sequence differs).
  static func validString(_ bytes: UnsafeRawBufferPointer) -> String? {
    var string = String(decoding: bytes, as: UTF8.self)
    let valid = string.withUTF8 { utf8 in
      utf8.count == bytes.count
        && (bytes.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
    }
    return valid ? string : nil
  }

  /// Whether `bytes` are valid UTF-8, without making a `String` of ASCII text.
  static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    isASCII(bytes) || validString(bytes) != nil
  }

  /// Whether no byte of `bytes` is above 0x7F; 8 bytes at a time (byte by byte was a tenth of
  /// checking a 1,000,000-key XML file).
  private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    while index + 8 <= bytes.count {
      guard bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      else { return false }
      index += 8
    }
    while index < bytes.count {
      guard bytes[index] < 0x80 else { return false }
      index += 1
    }
    return true
  }
}

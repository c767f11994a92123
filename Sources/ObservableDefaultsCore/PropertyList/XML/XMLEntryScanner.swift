import Foundation

/// The scan of ``XMLPropertyListEntries``: the plain form of an XML property list, byte by byte,
/// without building a value. It gives up (nil) on anything outside that form. Literals are
/// compared with `memcmp` and searched with `memchr`: generic iteration over the bytes was most
/// of an XML flush in its first profile.
struct XMLEntryScanner {
  let bytes: UnsafeRawBufferPointer
  var position = 0
  /// Containers deeper than this are left to the whole parse (the validator bounds them too).
  static let maximumDepth = 512

  /// The value elements: their names, and whether they hold text or other elements.
  private enum Kind { case scalar, dictionary, array, boolean }
  private static let elements: [(name: StaticString, close: StaticString, kind: Kind)] = [
    ("string", "</string>", .scalar), ("integer", "</integer>", .scalar),
    ("real", "</real>", .scalar), ("date", "</date>", .scalar), ("data", "</data>", .scalar),
    ("dict", "</dict>", .dictionary), ("array", "</array>", .array),
    ("true", "", .boolean), ("false", "", .boolean),
  ]

  init(bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The top dictionary, or nil (an empty `<dict/>` too: there is no place for a new entry).
  mutating func topDictionary() -> XMLPropertyListEntries.Dictionary? {
    guard bytes.baseAddress != nil, prolog() else { return nil }
    skipSpace()
    guard consume("<dict>") else { return nil }
    let contentsStart = position
    var entries: [XMLPropertyListEntries.Entry] = []
    while true {
      skipSpace()
      let start = position
      if consume("</dict>") {
        return end()
          ? XMLPropertyListEntries.Dictionary(entries: entries, contents: contentsStart..<start)
          : nil
      }
      guard consume("<key>"), let keyEnd = find(UInt8(ascii: "<")) else { return nil }
      let key = position..<keyEnd
      let keyBytes = UnsafeRawBufferPointer(rebasing: bytes[key])
      // Checked for entities and line ends here, for UTF-8 when a key is made of them
      // (``XMLPropertyListEntries/keys(of:_:in:)``: a re-read makes only the changed entries').
      guard memchr(keyBytes.baseAddress!, Int32(UInt8(ascii: "&")), keyBytes.count) == nil,
        memchr(keyBytes.baseAddress!, 0x0D, keyBytes.count) == nil
      else { return nil }
      position = keyEnd
      guard consume("</key>") else { return nil }
      skipSpace()
      let valueStart = position
      guard element(depth: 0) else { return nil }
      let value = UnsafeRawBufferPointer(rebasing: bytes[valueStart..<position])
      entries.append(
        XMLPropertyListEntries.Entry(
          key: key, fingerprint: PropertyListEntries.fingerprint(key: keyBytes, value: value),
          start: start, value: valueStart..<position))
    }
  }

  /// The text of `bytes` when they are valid UTF-8 (decoded through the contiguous fast path,
  /// then compared with the bytes: a repaired sequence differs).
  static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
    var string = String(decoding: bytes, as: UTF8.self)
    let valid = string.withUTF8 { utf8 in
      utf8.count == bytes.count
        && (bytes.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
    }
    return valid ? string : nil
  }

  /// Skips the byte-order mark, a UTF-8 XML declaration, a document type without an internal
  /// subset and the `<plist>` start tag.
  mutating func prolog() -> Bool {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    skipSpace()
    if consume("<?xml") {
      guard let end = find("?>") else { return false }
      let declaration = String(decoding: bytes[position..<end], as: UTF8.self).lowercased()
      if declaration.contains("encoding"),
        !(declaration.contains("\"utf-8\"") || declaration.contains("'utf-8'"))
      {
        return false
      }
      position = end + 2
      skipSpace()
    }
    if consume("<!DOCTYPE") {
      guard let end = find(UInt8(ascii: ">")),
        !bytes[position..<end].contains(UInt8(ascii: "["))
      else { return false }
      position = end + 1
      skipSpace()
    }
    guard consume("<plist"), let end = find(UInt8(ascii: ">")), bytes[end - 1] != UInt8(ascii: "/")
    else { return false }
    position = end + 1
    return true
  }

  /// Whether only `</plist>` and white space follow.
  mutating func end() -> Bool {
    skipSpace()
    guard consume("</plist>") else { return false }
    skipSpace()
    return position == bytes.count
  }

  /// Skips one value element (with its contents) at ``position``.
  private mutating func element(depth: Int) -> Bool {
    guard depth < Self.maximumDepth, position < bytes.count, bytes[position] == UInt8(ascii: "<"),
      let close = find(UInt8(ascii: ">"))
    else { return false }
    let isEmpty = bytes[close - 1] == UInt8(ascii: "/")
    let nameEnd = isEmpty ? close - 1 : close
    guard
      let element = Self.elements.first(where: {
        matches($0.name, at: position + 1, length: nameEnd - position - 1)
      })
    else { return false }
    position = close + 1
    switch element.kind {
    case .boolean: return isEmpty
    case _ where isEmpty: return true
    case .scalar:
      // Text up to the end tag: a `<` before it (CDATA, a comment) is left to the whole parse.
      guard let textEnd = find(UInt8(ascii: "<")) else { return false }
      position = textEnd
      return consume(element.close)
    case .dictionary, .array:
      while true {
        skipSpace()
        if consume(element.close) { return true }
        if element.kind == .dictionary {
          guard consume("<key>"), let keyEnd = find(UInt8(ascii: "<")) else { return false }
          position = keyEnd
          guard consume("</key>") else { return false }
          skipSpace()
        }
        guard self.element(depth: depth + 1) else { return false }
      }
    }
  }

  mutating func skipSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  /// Whether the `length` bytes at `offset` are `literal`.
  func matches(_ literal: StaticString, at offset: Int, length: Int) -> Bool {
    length == literal.utf8CodeUnitCount && starts(with: literal, at: offset)
  }

  func starts(with literal: StaticString, at offset: Int) -> Bool {
    let count = literal.utf8CodeUnitCount
    return bytes.count - offset >= count
      && memcmp(bytes.baseAddress! + offset, literal.utf8Start, count) == 0
  }

  /// Moves past `literal` when the text at ``position`` starts with it.
  mutating func consume(_ literal: StaticString) -> Bool {
    guard starts(with: literal, at: position) else { return false }
    position += literal.utf8CodeUnitCount
    return true
  }

  /// The offset of the next `byte` from ``position``.
  func find(_ byte: UInt8) -> Int? {
    guard position < bytes.count,
      let found = memchr(bytes.baseAddress! + position, Int32(byte), bytes.count - position)
    else { return nil }
    return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
  }

  /// The offset of the next `literal` from ``position``.
  private func find(_ literal: StaticString) -> Int? {
    var offset = position
    while offset < bytes.count,
      let found = memchr(
        bytes.baseAddress! + offset, Int32(literal.utf8Start.pointee), bytes.count - offset)
    {
      let start = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
      if starts(with: literal, at: start) { return start }
      offset = start + 1
    }
    return nil
  }
}

import Foundation

/// The encoding of a text property list (XML or OpenStep), found as CoreFoundation finds it
/// (`encodingForXMLData` in `CFPropertyList.c`): a UTF-32 or UTF-16 byte-order mark, else the
/// `encoding` of an XML declaration, else UTF-8. The readers read UTF-8 only; text in another
/// encoding is converted first.
enum PropertyListTextEncoding {
  /// The UTF-8 form of `bytes` when they are in another encoding; nil when they are UTF-8 (with
  /// or without a byte-order mark) and are read as they are.
  ///
  /// - Throws: ``PropertyListRejection`` for an encoding this reader does not take, or text that
  ///   is not in the encoding it names.
  static func utf8(converting bytes: UnsafeRawBufferPointer) throws(PropertyListRejection) -> Data?
  {
    guard let (encoding, skip) = try encoding(of: bytes) else { return nil }
    let text = Data(bytes[skip...])
    guard let string = String(data: text, encoding: encoding) else {
      throw PropertyListRejection(reason: "text property list: it is not \(encoding) text")
    }
    return Data(string.utf8)
  }

  /// Whether `bytes` are UTF-8 text (no other byte-order mark, no other declared encoding).
  ///
  /// - Throws: ``PropertyListRejection`` for an encoding this reader does not take.
  static func isUTF8(_ bytes: UnsafeRawBufferPointer) throws(PropertyListRejection) -> Bool {
    try encoding(of: bytes) == nil
  }

  /// The encoding of `bytes` and the length of its byte-order mark; nil for UTF-8.
  private static func encoding(of bytes: UnsafeRawBufferPointer) throws(PropertyListRejection)
    -> (String.Encoding, Int)?
  {
    let marks: [([UInt8], String.Encoding)] = [
      ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian), ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian),
      ([0xFE, 0xFF], .utf16BigEndian), ([0xFF, 0xFE], .utf16LittleEndian),
    ]
    for (mark, encoding) in marks where bytes.starts(with: mark) { return (encoding, mark.count) }
    guard let name = declaredEncoding(bytes) else { return nil }
    guard let encoding = encodings[name.lowercased()] else {
      throw PropertyListRejection(
        reason: "XML property list: its encoding \"\(name.prefix(40))\" is not one this reader "
          + "takes (UTF-8, UTF-16, UTF-32, US-ASCII, ISO-8859-1, ISO-8859-2, Windows-1250…1254, "
          + "Mac OS Roman, Shift_JIS, EUC-JP, ISO-2022-JP)")
    }
    return encoding == .utf8 ? nil : (encoding, 0)
  }

  /// The `encoding` pseudo-attribute of the XML declaration that starts `bytes`, if any.
  private static func declaredEncoding(_ bytes: UnsafeRawBufferPointer) -> String? {
    guard bytes.starts(with: "<?xml".utf8) else { return nil }
    let declaration = bytes.prefix(while: { $0 != UInt8(ascii: ">") })
    let text = String(decoding: declaration, as: UTF8.self)
    guard let name = text.range(of: "encoding=") else { return nil }
    let rest = text[name.upperBound...]
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    return rest.dropFirst().prefix { $0 != quote }.description
  }

  /// The IANA names taken, lowercased, and their encodings.
  private static let encodings: [String: String.Encoding] = [
    "utf-8": .utf8, "utf8": .utf8, "us-ascii": .ascii, "ascii": .ascii,
    "utf-16": .utf16, "utf-16be": .utf16BigEndian, "utf-16le": .utf16LittleEndian,
    "utf-32": .utf32, "utf-32be": .utf32BigEndian, "utf-32le": .utf32LittleEndian,
    "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso-8859-2": .isoLatin2,
    "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251,
    "windows-1252": .windowsCP1252, "windows-1253": .windowsCP1253,
    "windows-1254": .windowsCP1254, "macintosh": .macOSRoman, "x-mac-roman": .macOSRoman,
    "shift_jis": .shiftJIS, "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP,
  ]
}

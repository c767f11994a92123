import Foundation

/// The encoding of a JSON text, found as RFC 8259 §8.1 and RFC 4627 §3 describe: a
/// byte-order mark, else the pattern of zero bytes in the first four (JSON text starts with
/// two ASCII characters). RFC 8259 asks for UTF-8; `JSONSerialization` and python's `json`
/// also read UTF-16 and UTF-32, so `import --json` takes them too, as UTF-8.
enum JSONTextEncoding {
  /// `data` as UTF-8: itself when it is UTF-8 (or too short to tell), else decoded from the
  /// UTF-16 or UTF-32 its first bytes name, its byte-order mark dropped.
  ///
  /// - Throws: ``VerbError`` `.invalidValue` naming `file` when the bytes are not the text of
  ///   the encoding their first bytes name.
  static func utf8(_ data: Data, file: String) throws(VerbError) -> Data {
    let bytes = Array(data.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - data.count))
    let found: (String.Encoding, mark: Int, name: String)? =
      switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
      case (0x00, 0x00, 0xFE, 0xFF): (.utf32BigEndian, 4, "UTF-32")
      case (0xFF, 0xFE, 0x00, 0x00): (.utf32LittleEndian, 4, "UTF-32")
      case (0xFE, 0xFF, _, _): (.utf16BigEndian, 2, "UTF-16")
      case (0xFF, 0xFE, _, _): (.utf16LittleEndian, 2, "UTF-16")
      case (0x00, 0x00, 0x00, _): (.utf32BigEndian, 0, "UTF-32")
      case (_, 0x00, 0x00, 0x00): (.utf32LittleEndian, 0, "UTF-32")
      case (0x00, _, _, _): (.utf16BigEndian, 0, "UTF-16")
      case (_, 0x00, _, _): (.utf16LittleEndian, 0, "UTF-16")
      default: nil
      }
    guard let (encoding, mark, name) = found else { return data }
    guard let text = String(data: data.dropFirst(mark), encoding: encoding) else {
      throw .invalid("\(file): not valid JSON (not the \(name) text its first bytes name)")
    }
    return Data(text.utf8)
  }
}

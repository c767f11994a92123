import Foundation

/// The characters an XML property list can hold: XML 1.0's `Char` production
/// (https://www.w3.org/TR/xml/#charsets). U+0000…U+0008, U+000B, U+000C, U+000E…U+001F, U+FFFE
/// and U+FFFF cannot be written, not even as character references (unpaired surrogates cannot
/// occur in a Swift `String`); a binary property list holds any string.
///
/// The one rule for every XML writer of the package: a suite's flush and `settings-editor export`.
package enum XMLCharacters {
  /// Refuses to write `values` (top-level key → value, by `String` or exact key) into an XML
  /// property list when a key or
  /// string holds a character XML 1.0 cannot hold: every XML reader would refuse the whole file.
  ///
  /// - Throws: ``PropertyListError`` of kind `.invalidValue(key:)` naming the top-level key, the
  ///   key path inside its value and the character.
  static func check(_ values: Any, writingTo url: URL) throws {
    guard let (path, scalar) = firstRefused(in: values) else { return }
    let inside = path.count > 1 ? " at " + path.dropFirst().joined(separator: " / ") : ""
    let digits = String(scalar.value, radix: 16, uppercase: true)
    let code = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    throw PropertyListError(
      file: url, kind: .invalidValue(key: path[0]),
      reason: "it holds U+\(code)\(inside), a character an XML property list cannot hold "
        + "(XML 1.0); a binary suite can")
  }

  /// The first key path (keys, and `[index]` for array elements) in `value` whose key or string
  /// holds a character XML 1.0 cannot hold, and that character; dictionaries in key order.
  ///
  /// - Parameter path: The key path of `value` itself.
  package static func firstRefused(in value: Any, path: [String] = []) -> (
    path: [String], scalar: Unicode.Scalar
  )? {
    switch value {
    case let text as String:
      return refused(in: text).map { (path, $0) }
    case let items as [Any]:
      for (index, item) in items.enumerated() {
        if let found = firstRefused(in: item, path: path + ["[\(index)]"]) { return found }
      }
    case let entries as [String: Any]:
      return firstRefused(in: entries.sorted { $0.key < $1.key }, path: path)
    case let entries as [PropertyListKey: Any]:
      return firstRefused(
        in: entries.sorted { $0.key < $1.key }.lazy.map { (key: $0.key.string, value: $0.value) },
        path: path)
    default:
      break
    }
    return nil
  }

  /// ``firstRefused(in:path:)`` of a dictionary's entries, in key order.
  private static func firstRefused(
    in entries: some Sequence<(key: String, value: Any)>, path: [String]
  ) -> (path: [String], scalar: Unicode.Scalar)? {
    for (key, item) in entries {
      if let scalar = refused(in: key) { return (path + [key], scalar) }
      if let found = firstRefused(in: item, path: path + [key]) { return found }
    }
    return nil
  }

  /// The first character of `text` XML 1.0 cannot hold, found in its UTF-8 bytes: a byte below
  /// 0x20 other than tab, line feed and carriage return, or U+FFFE / U+FFFF (EF BF BE / EF BF BF).
  /// A suite's strings are checked at every XML flush of them, so no scalar is decoded.
  private static func refused(in text: String) -> Unicode.Scalar? {
    var text = text
    return text.withUTF8 { bytes -> Unicode.Scalar? in
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte < 0x20, byte != 0x9, byte != 0xA, byte != 0xD { return Unicode.Scalar(byte) }
        if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF,
          bytes[index + 2] >= 0xBE
        {
          return Unicode.Scalar(0xFFF0 | UInt32(bytes[index + 2] & 0x0F))
        }
        index += 1
      }
      return nil
    }
  }
}

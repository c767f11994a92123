import Foundation

/// The values an XML property list can hold: strings and keys of the characters of XML 1.0's
/// `Char` production (https://www.w3.org/TR/xml/#charsets), and dates of the years its `<date>`
/// text holds (``PropertyListCalendar/years``). U+0000…U+0008, U+000B, U+000C, U+000E…U+001F,
/// U+FFFE and U+FFFF cannot be written, not even as character references (unpaired surrogates
/// cannot occur in a Swift `String`); nor can a date before year 0, after year 999999 or not
/// finite. A binary property list holds any string and any date.
///
/// The one rule for every XML writer of the package: a suite's flush and `settings-editor export`.
package enum XMLHoldableValues {
  /// What an XML property list cannot hold, found in a value.
  package enum Refusal: Equatable {
    /// A character XML 1.0 cannot hold, in a key or string.
    case character(Unicode.Scalar)
    /// A date (its seconds from 2001-01-01) outside the years of the `<date>` text.
    case date(Double)

    /// What is held: `U+001B`, or `the date -1e+13 s from 2001-01-01T00:00:00Z`.
    package var held: String {
      switch self {
      case .character(let scalar):
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
      case .date(let seconds):
        return "the date "
          + PropertyListDateText.text(of: Date(timeIntervalSinceReferenceDate: seconds))
      }
    }

    /// Why XML cannot hold it: `a character XML 1.0 cannot hold`, or `outside the years
    /// 0–999999 of XML's date text`.
    package var reason: String {
      switch self {
      case .character: "a character XML 1.0 cannot hold"
      case .date: "outside the years 0–999999 of XML's date text"
      }
    }
  }

  /// Refuses to write `values` (top-level key → value, by `String` or exact key) into an XML
  /// property list when a key or string holds a character XML 1.0 cannot hold, or a date is
  /// outside the years of the text: every XML reader would refuse the whole file, or read
  /// another date.
  ///
  /// - Throws: ``PropertyListError`` of kind `.invalidValue(key:)` naming the top-level key, the
  ///   key path inside its value and what it holds.
  static func check(_ values: Any, writingTo url: URL) throws {
    guard let (path, refusal) = firstRefused(in: values) else { return }
    // How to get a binary file there: convert the file, or make it, when it does not exist yet
    // or is empty (converting it said nothing the user could run).
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int
    let binaryHint =
      (size ?? 0) > 0
      ? "a binary property list can hold it (plutil -convert binary1 converts the file)"
      : "a binary property list can hold it (plutil -create binary1 makes the file an empty "
        + "binary one)"
    let inside = path.count > 1 ? " at " + path.dropFirst().joined(separator: " / ") : ""
    let reason =
      switch refusal {
      case .character: "a character an XML property list cannot hold (XML 1.0)"
      case .date: "outside the years 0–999999 an XML property list's date holds"
      }
    throw PropertyListError(
      file: url, kind: .invalidValue(key: path[0]),
      reason: "it holds \(refusal.held)\(inside), \(reason); \(binaryHint)")
  }

  /// The first key path (keys, and `[index]` for array elements) in `value` whose key or string
  /// holds a character XML 1.0 cannot hold, or whose date is outside the years of the text, and
  /// what it holds; dictionaries in key order (see
  /// ``PropertyListValue/firstFound(in:inKey:inLeaf:)``).
  package static func firstRefused(in value: Any) -> (path: [String], refusal: Refusal)? {
    PropertyListValue.firstFound(
      in: value, inKey: { refused(in: $0).map(Refusal.character) },
      inLeaf: refusal(ofLeaf:)
    )
    .map { ($0.path, $0.found) }
  }

  /// What XML cannot hold in `leaf`, a string or a date; nil for any other value. A canonical
  /// value is told by its dynamic type, without a cast (most leaves are strings); one of
  /// another type (an `NSString`, given to the file's own API) by a cast, as the writer takes
  /// it.
  private static func refusal(ofLeaf leaf: Any) -> Refusal? {
    let kind = type(of: leaf)
    if kind == Int.self || kind == Double.self || kind == Bool.self || kind == Data.self {
      return nil
    }
    if let text = kind == String.self ? value(leaf, as: String.self) : leaf as? String {
      return refused(in: text).map(Refusal.character)
    }
    guard let date = kind == Date.self ? value(leaf, as: Date.self) : leaf as? Date else {
      return nil
    }
    let seconds = date.timeIntervalSinceReferenceDate
    return PropertyListCalendar.fields(of: seconds) == nil ? .date(seconds) : nil
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

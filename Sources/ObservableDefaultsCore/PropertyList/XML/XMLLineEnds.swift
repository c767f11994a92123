import Foundation

/// XML's end-of-line handling (XML 1.0, §2.11): before parsing, a processor turns each carriage
/// return followed by a line feed, and each carriage return alone, into one line feed. A raw
/// carriage return in a `<string>` therefore reads as a line feed in python's plistlib, libxml2
/// and every XML 1.0 reader; Foundation's parser here keeps it, so its text goes through
/// ``normalized(_:)`` first and every reader of a suite sees the same value. A carriage return
/// written as a character reference (`&#13;`, as our writers do) is not a line end and stays.
enum XMLLineEnds {
  /// `text` with its line ends translated, when it is an XML text in an encoding whose carriage
  /// return is the byte 13 (UTF-8 or another ASCII-compatible one: it starts with `<`, after a
  /// UTF-8 byte-order mark and white space); any other text (UTF-16, OpenStep) is returned as is.
  static func normalized(_ text: Data) -> Data {
    guard text.contains(0x0D), startsWithMarkup(text) else { return text }
    var result = Data(capacity: text.count)
    var start = text.startIndex
    var index = text.startIndex
    while index < text.endIndex {
      if text[index] == 0x0D {
        result.append(text[start..<index])
        result.append(0x0A)
        let next = text.index(after: index)
        index = next < text.endIndex && text[next] == 0x0A ? text.index(after: next) : next
        start = index
      } else {
        index = text.index(after: index)
      }
    }
    result.append(text[start...])
    return result
  }

  /// Whether `text` starts with `<` after an optional UTF-8 byte-order mark and white space.
  private static func startsWithMarkup(_ text: Data) -> Bool {
    var bytes = text[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    return first == UInt8(ascii: "<")
  }
}

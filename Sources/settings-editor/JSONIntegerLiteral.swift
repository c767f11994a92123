/// An integer literal of a JSON text (digits, with a leading `-`, no fraction or exponent), by
/// where it lies against the integers a property list holds: CoreFoundation's and Foundation's
/// property lists hold -9223372036854775808 (`Int64.min`) to 18446744073709551615
/// (`UInt64.max`).
///
/// `JSONSerialization` reads an integer beyond them as a real, which rounds most of them
/// (123456789012345678901234567890 became 1.2345678901234568e+29 with no word), and reads
/// `-9223372036854775808` itself as a real too, though a property list holds it as an integer.
enum JSONIntegerLiteral {
  /// Within the range, read as an integer by `JSONSerialization`.
  case held
  /// `-9223372036854775808`, which `JSONSerialization` reads as a real.
  case minimum
  /// Beyond the range.
  case outOfRange

  /// What `literal` is; nil when it is not an integer literal (a real, or no number).
  init?(_ literal: ArraySlice<UInt8>) {
    let isNegative = literal.first == UInt8(ascii: "-")
    let digits = literal.dropFirst(isNegative ? 1 : 0)
    guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    let significant = digits.drop { $0 == UInt8(ascii: "0") }
    let limit = (isNegative ? "9223372036854775808" : "18446744073709551615").utf8
    if significant.count != limit.count {
      self = significant.count < limit.count ? .held : .outOfRange
    } else if significant.elementsEqual(limit) {
      self = isNegative ? .minimum : .held
    } else {
      self = significant.lexicographicallyPrecedes(limit) ? .held : .outOfRange
    }
  }

  /// Whether `byte` can be part of a JSON number.
  static func isNumberByte(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
      || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
  }
}

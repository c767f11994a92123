/// A number of a JSON text, read as a property-list value exactly.
///
/// `JSONSerialization` (swift-corelibs-foundation) reads some numbers as others: a negative
/// integer of 19 digits (`-1234567890123456789`, `Int64.min` too) as a rounded real; a real a
/// few units in the last place off (`-23957.515365261122` as `-23957.51536526111`); an integer
/// beyond the property-list range as a rounded real, with no word. So the numbers are found in
/// the text (``JSONExactKeys``) and read here: an integer as `Int`, or `UInt64` above
/// `Int.max`; a real as the `Double` nearest to it (Swift's correctly rounded conversion).
enum JSONNumberLiteral {
  /// Whether `byte` can be part of a JSON number.
  static func isNumberByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
      || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
  }

  /// Whether `literal` is a number by RFC 8259's grammar (§6): `-`, then `0` or digits not
  /// starting with `0`, then a fraction and an exponent, each optional. Anything else is left
  /// in the text for the parser to refuse.
  static func isValid(_ literal: ArraySlice<UInt8>) -> Bool {
    var rest = literal[...]
    if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
    guard let first = rest.first, isDigit(first) else { return false }
    rest = first == UInt8(ascii: "0") ? rest.dropFirst() : rest.drop(while: isDigit)
    if rest.first == UInt8(ascii: ".") {
      let digits = rest.dropFirst().prefix(while: isDigit)
      guard !digits.isEmpty else { return false }
      rest = rest.dropFirst(1 + digits.count)
    }
    if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
      rest = rest.dropFirst()
      if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") {
        rest = rest.dropFirst()
      }
      let digits = rest.prefix(while: isDigit)
      guard !digits.isEmpty else { return false }
      rest = rest.dropFirst(digits.count)
    }
    return rest.isEmpty
  }

  /// The property-list value of a valid `literal`: `Int`, `UInt64` or `Double`.
  ///
  /// - Throws: ``Refusal`` for an integer beyond -9223372036854775808…18446744073709551615, or a
  ///   real beyond what a `Double` holds (`1e400`).
  static func value(of literal: String) throws(Refusal) -> Any {
    guard literal.utf8.contains(where: { !isDigit($0) && $0 != UInt8(ascii: "-") }) else {
      if let integer = Int(literal) { return integer }
      if let integer = UInt64(literal) { return integer }
      throw .integerOutOfRange
    }
    guard let real = Double(literal), real.isFinite else { throw .realOutOfRange }
    return real
  }

  /// Why a number is refused.
  enum Refusal: Error {
    /// An integer beyond the property-list range.
    case integerOutOfRange
    /// A real beyond what a `Double` holds.
    case realOutOfRange
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte)
  }
}

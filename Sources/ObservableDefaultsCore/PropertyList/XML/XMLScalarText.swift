import Foundation

/// The rules for the text of XML property-list scalars that Foundation reads leniently (see
/// ``XMLPropertyListScanner``).
enum XMLScalarText {
  /// Why `text` (white space trimmed) is not a decimal (or `0x` hexadecimal) integer within
  /// −2⁶³…2⁶⁴−1; nil when it is one.
  static func integerProblem(_ text: String) -> String? {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    var digits = Substring(text)
    let negative = digits.hasPrefix("-")
    if negative || digits.hasPrefix("+") { digits = digits.dropFirst() }
    let radix = digits.hasPrefix("0x") || digits.hasPrefix("0X") ? 16 : 10
    if radix == 16 { digits = digits.dropFirst(2) }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && (radix == 16 || $0.isNumber) })
    else {
      return "\"\(text.prefix(40))\" is not an integer"
    }
    guard let magnitude = UInt64(digits, radix: radix),
      !negative || magnitude <= UInt64(Int64.max) + 1
    else { return "\(text.prefix(40)) is outside -9223372036854775808…18446744073709551615" }
    return nil
  }

  /// The date of `YYYY-MM-DDTHH:MM:SSZ` (four to six year digits) naming a day and time of
  /// ``PropertyListCalendar`` (CoreFoundation's: proleptic Gregorian); nil when the text is not of
  /// that form or names no such day or time.
  static func date(_ text: UnsafeRawBufferPointer) -> Date? {
    let yearDigits = text.prefix(while: isDigit).count
    let pattern: StaticString = "-00-00T00:00:00Z"
    guard (4...6).contains(yearDigits), text.count == yearDigits + pattern.utf8CodeUnitCount,
      zip(text[yearDigits...], UnsafeBufferPointer(start: pattern.utf8Start, count: 16)).allSatisfy(
        {
          $1 == UInt8(ascii: "0") ? isDigit($0) : $0 == $1
        })
    else { return nil }
    func number(_ start: Int, _ count: Int) -> Int {
      text[start..<start + count].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    let fields = PropertyListCalendar.Fields(
      year: number(0, yearDigits), month: number(yearDigits + 1, 2),
      day: number(yearDigits + 4, 2), hour: number(yearDigits + 7, 2),
      minute: number(yearDigits + 10, 2), second: number(yearDigits + 13, 2))
    return PropertyListCalendar.seconds(of: fields).map {
      Date(timeIntervalSinceReferenceDate: Double($0))
    }
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// The sizes of the texts ``isBase64(_:)`` checks in a task, when set: a test counts the
  /// passes over a large value's Base64 apart from its decoding.
  @TaskLocal static var checkedBase64: SystemMemory.LargeBlockLog?

  /// Base64 with white space anywhere: after the white space, groups of four characters of the
  /// alphabet, the last group ending in at most two `=`. One pass that builds nothing (a 50 MB
  /// value's text is 67 MB); Foundation's decoder also takes `====` as a zero byte, which this
  /// refuses.
  static func isBase64(_ text: UnsafeRawBufferPointer) -> Bool {
    checkedBase64?.note(text.count)
    guard let base = text.baseAddress else { return true }
    // Up to the first `=`: each byte's class from a table, accumulated without a branch (a
    // `switch` per byte mispredicted at every line end and took 2.5 cycles a byte; comparing
    // with the alphabet's three ranges had mispredicted for most characters). The table is
    // taken once: read in the loop, the static's lazy initialization was checked per byte.
    let end =
      memchr(base, Int32(UInt8(ascii: "=")), text.count).map { base.distance(to: $0) }
      ?? text.count
    let (seen, letters) = base64Classes.withUnsafeBufferPointer { classes in
      UnsafeRawBufferPointer(rebasing: text[..<end]).reduce(into: (UInt8(0), 0)) {
        let bits = classes[Int($1)]
        $0.0 |= bits
        $0.1 &+= Int(bits & Base64Class.letter)
      }
    }
    guard seen & Base64Class.other == 0 else { return false }
    // After it: only `=` (two at most) and white space.
    var padding = 0
    for byte in text[end...] where !XMLPropertyListScanner.isSpace(byte) {
      guard byte == UInt8(ascii: "="), padding < 2 else { return false }
      padding += 1
    }
    return (letters + padding) % 4 == 0
  }

  /// The bits of a byte's class in Base64 text: a letter of the alphabet, or another byte
  /// (white space has none; `=` counts as other before the first `=`).
  private enum Base64Class {
    static let letter: UInt8 = 1
    static let other: UInt8 = 2
  }

  /// The class of each byte in Base64 text.
  private static let base64Classes: [UInt8] = (0...255).map { byte -> UInt8 in
    switch UInt8(byte) {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
      Base64Class.letter
    case 0x20, 0x09, 0x0D, 0x0A: 0
    default: Base64Class.other
    }
  }
}

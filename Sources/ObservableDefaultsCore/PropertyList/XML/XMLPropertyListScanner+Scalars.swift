import Foundation

/// The scalar elements: `<integer>`, `<real>`, `<date>` and `<data>`, checked (``XMLScalarText``)
/// and, when building, made into their canonical values.
extension XMLPropertyListScanner {
  /// The value of the scalar element `name`, whose non-empty start tag was just read; the text
  /// of a `<data>` element is not checked but kept in ``deferredData`` when `deferring`.
  mutating func scalar(_ name: ElementName, deferring: Bool = false)
    throws(PropertyListRejection) -> Any
  {
    let start = position
    if name == .real {
      let text = try self.text(of: .real, always: true).string
      guard let value = Self.real(text) else {
        position = start
        throw rejection("<real> \"\(text.prefix(40))\" is not a number")
      }
      return building ? value : ()
    }
    guard let end = find(UInt8(ascii: "<"), from: position) else {
      throw rejection("<\(name.rawValue)> is not closed")
    }
    let text = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    let value: Any
    switch name {
    case .data:
      // Foundation decodes no entity in <data>: it skips `&`, `#` and `;` as it skips white
      // space, so `AA&#69;C` would be read as other bytes than the text says. Refused.
      // Building, the text is checked as it is decoded (``Base64Text/decode(_:)``).
      let data = building ? Base64Text.decode(text) : nil
      if deferring { deferCheck(of: start..<end) }
      guard building ? data != nil : deferring || XMLScalarText.isBase64(text) else {
        throw rejection("<data> is not Base64")
      }
      value = data ?? ()
      position = end
      try closeTag("data")
    case .date:
      guard let date = XMLScalarText.date(text) else {
        let string = String(decoding: text, as: UTF8.self)
        throw rejection("<date> \"\(string.prefix(40))\" is not a date (YYYY-MM-DDTHH:MM:SSZ)")
      }
      value = building ? date : ()
      position = end
      try closeTag("date")
    default:
      // Leading white space is skipped, as CoreFoundation's `parseIntegerTag` skips it.
      let digits = String(decoding: text.drop(while: Self.isSpace), as: UTF8.self)
      if let problem = XMLScalarText.integerProblem(digits) {
        throw rejection("<integer> \(problem)")
      }
      value = building ? Self.integer(digits.trimmingCharacters(in: .whitespacesAndNewlines)) : ()
      position = end
      try closeTag("integer")
    }
    return value
  }

  /// A checked integer (``XMLScalarText``): `Int` when it fits, else `UInt64`.
  private static func integer(_ text: String) -> Any {
    var digits = Substring(text)
    let negative = digits.hasPrefix("-")
    if negative || digits.hasPrefix("+") { digits = digits.dropFirst() }
    let radix = digits.hasPrefix("0x") || digits.hasPrefix("0X") ? 16 : 10
    if radix == 16 { digits = digits.dropFirst(2) }
    let magnitude = UInt64(digits, radix: radix) ?? 0
    if negative { return magnitude == 1 << 63 ? Int.min : -Int(magnitude) }
    return magnitude <= UInt64(Int.max) ? Int(magnitude) : magnitude
  }

  /// The number `text` names, after leading white space: digits, sign, point and exponent, or
  /// one of the names CoreFoundation's `parseRealTag` takes for infinities and NaN (any case).
  private static func real(_ text: String) -> Double? {
    let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    switch trimmed.lowercased() {
    case "nan": return .nan
    case "inf", "+inf", "infinity", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default:
      guard
        trimmed.utf8.allSatisfy({
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-")
            || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e")
        })
      else { return nil }
      return Double(String(trimmed))
    }
  }
}

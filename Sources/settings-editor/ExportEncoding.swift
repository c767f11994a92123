import Foundation
import ObservableDefaultsCore

/// The bytes `export` writes: well-formed XML or JSON that any reader accepts, and that shows no
/// control sequence, reordering or hidden character on a terminal.
///
/// - XML: a key or string holding a character XML 1.0 cannot hold, or a date outside the years
///   of XML's date text (``XMLHoldableValues``, the rule a suite's XML flush follows too), is
///   refused, naming its key path; `--json` exports it (the refusal says so, unless the values
///   hold a real JSON cannot hold too: then a copy of the binary file is the way).
///   Characters XML can hold but a terminal must not receive raw (those ``TerminalText/escaped(_:)`` escapes, except tab and newline, plus
///   carriage return, which XML readers would turn into a newline) are written as character
///   references (`&#x9b;`), which every XML reader turns back into the same character.
/// - JSON: the same characters are written as `\uXXXX` escapes (JSON's own form).
enum ExportEncoding {
  /// `values` as an XML property list, by exact key: keys that differ only in Unicode
  /// normalization (at the top or in nested dictionaries) are each written, as a suite's XML
  /// flush writes them.
  ///
  /// - Throws: ``VerbError`` `.invalidValue` naming the first key path holding what XML cannot
  ///   hold.
  static func xml(_ values: [PropertyListKey: Any]) throws -> Data {
    if let (path, refusal) = XMLHoldableValues.firstRefused(in: values) {
      let name = path.map { TerminalText.escaped($0) }.joined(separator: " / ")
      let instead =
        JSONTransfer.firstNotHeld(in: values) == nil ? "export with --json instead" : neitherHolds
      throw VerbError.invalid(
        "cannot export as XML: \(name) holds \(refusal.held), \(refusal.reason); \(instead)")
    }
    let data = try PropertyListEncoding.data(of: PropertyListDocument(values: values))
    return replacing(in: data) { "&#x\(hex($0.value, digits: 1));" }
  }

  /// What a refusal of either export says when the other format cannot hold the values either
  /// (each named the other, which refused in turn): a binary property list holds them all.
  static let neitherHolds =
    "the other export format cannot hold this suite either: copy its binary property-list file "
    + "instead"

  /// JSON text from `JSONEncoder` with the characters of ``TerminalText`` escaped as
  /// `\uXXXX` (they can only occur inside strings there); one beyond U+FFFF as its two UTF-16
  /// code units, `\uDB40\uDC41` (RFC 8259, §7).
  static func json(_ data: Data) -> Data {
    replacing(in: data) { scalar in
      String(scalar).utf16.map { "\\u" + hex(UInt32($0), digits: 4) }.joined()
    }
  }

  /// `data` (UTF-8) with each character ``TerminalText/escaped(_:)`` escapes, other than tab and
  /// newline, replaced by `form` of it.
  private static func replacing(in data: Data, with form: (Unicode.Scalar) -> String) -> Data {
    let text = String(decoding: data, as: UTF8.self)
    guard text.unicodeScalars.contains(where: mustReplace) else { return data }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if mustReplace(scalar) {
        result.append(contentsOf: form(scalar).unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return Data(String(result).utf8)
  }

  private static func mustReplace(_ scalar: Unicode.Scalar) -> Bool {
    // Printable ASCII, most of any export, without a call.
    if scalar.value >= 0x20, scalar.value < 0x7F { return false }
    return scalar != "\n" && scalar != "\t" && TerminalText.needsEscape(scalar)
  }

  /// `value` in hexadecimal, at least `digits` digits (uppercase when more than one).
  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: digits > 1)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}

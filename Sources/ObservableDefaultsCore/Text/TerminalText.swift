/// Text made safe to show on a terminal: the one escaping rule of the editor and the
/// command-line verbs.
package enum TerminalText {
  /// `text` with every character that is not printable, or that would change how other text is
  /// shown, replaced by a visible escape, so one value stays one line and no terminal control
  /// sequence, reordering or hidden character reaches the terminal.
  ///
  /// - `\n`, `\t`, `\r` become `\n`, `\t`, `\r`;
  /// - other C0 controls (U+0000…U+001F), DEL (U+007F) and C1 controls (U+0080…U+009F: U+009B
  ///   alone starts a control sequence on some terminals) become `\u{…}` with the code point in
  ///   lowercase hexadecimal (`\u{1b}`);
  /// - bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A…U+202E,
  ///   U+2066…U+2069), zero-width and invisible characters (U+00AD, U+180E, U+200B…U+200D,
  ///   U+2060…U+2064, U+FEFF) and the line and paragraph separators (U+2028, U+2029) become
  ///   `\u{…}` too — the "Trojan Source" characters (CVE-2021-42574) and the ones that hide text;
  /// - the tag characters (U+E0000…U+E007F), invisible letters that can carry hidden text, and
  ///   the noncharacters (U+FDD0…U+FDEF, and the last two code points of every plane: U+FFFE,
  ///   U+FFFF … U+10FFFF), which Unicode reserves and no font draws (Unicode 15, §23.7 and
  ///   §23.9), become `\u{…}`;
  /// - so does every other character Unicode marks Default_Ignorable_Code_Point (drawn as
  ///   nothing: the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, U+034F, U+17B4, U+17B5,
  ///   the shorthand format controls, the musical formatting characters, …; Unicode 15, §5.21)
  ///   but the variation selectors, which choose how the character before them is drawn (an
  ///   emoji's U+FE0F), and the interlinear annotation controls U+FFF9…U+FFFB, which hide the
  ///   text between them where a program honours them.
  ///
  /// Backslashes are left as they are: a caller that must tell `\n` typed by hand from an escaped
  /// newline quotes them first.
  ///
  /// - Parameter text: Any text.
  /// - Returns: Text holding only printable characters; `text` itself when nothing is escaped.
  package static func escaped(_ text: String) -> String {
    // Most text is printable ASCII: one pass over the UTF-8 bytes, no copy.
    guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return text }
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    return escaped(text, by: escape)
  }

  /// `text` with each scalar for which `escape` returns an escape replaced by that escape: the
  /// loop of ``escaped(_:)`` for a caller whose rule escapes more (the editor also escapes what
  /// the terminal's locale cannot show).
  ///
  /// - Parameters:
  ///   - text: Any text.
  ///   - escape: The escape of a scalar, or nil to keep it.
  /// - Returns: The text with the escapes in place.
  package static func escaped(_ text: String, by escape: (Unicode.Scalar) -> String?) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if let escape = escape(scalar) {
        result += escape
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// `bytes` as text, each byte of a sequence that is not UTF-8 written `\xHH` (two uppercase
  /// hexadecimal digits: `\xFF`): a file name or argument as the kernel gave it, which Swift's
  /// `String` would otherwise replace with U+FFFD (so two names would read the same). The rest
  /// is decoded as it is; show the result through ``escaped(_:)`` like any other text.
  ///
  /// - Parameter bytes: Any bytes.
  /// - Returns: The text; for UTF-8 bytes, the same as decoding them.
  package static func decoded(_ bytes: some Collection<UInt8>) -> String {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = bytes.startIndex
    var text = ""
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
        offset = bytes.index(offset, offsetBy: encoded.count)
      case .error(let length):
        let end = bytes.index(offset, offsetBy: length)
        for byte in bytes[offset..<end] {
          text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
        offset = end
      case .emptyInput:
        return text
      }
    }
  }

  /// The escape ``escaped(_:)`` writes for `scalar` (`\n`, `\u{1b}`), or nil when `scalar` is
  /// shown as it is.
  package static func escape(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "\n": "\\n"
    case "\t": "\\t"
    case "\r": "\\r"
    case _ where needsEscape(scalar): "\\u{\(String(scalar.value, radix: 16))}"
    default: nil
    }
  }

  /// Whether `scalar` is shown escaped by ``escaped(_:)``.
  package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x20...0x7E: false
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFDD0...0xFDEF, 0xFFF9...0xFFFB: true
    // The noncharacters at the end of each plane (U+FFFE, U+FFFF, … U+10FFFF).
    case _ where scalar.value & 0xFFFE == 0xFFFE: true
    default:
      // Bidirectional formatting, zero-width and invisible characters, the tag characters: all
      // Default_Ignorable_Code_Point.
      scalar.properties.isDefaultIgnorableCodePoint && !scalar.properties.isVariationSelector
    }
  }
}

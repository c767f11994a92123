import CNcursesW
import Foundation
import ObservableDefaultsCore

/// Column arithmetic for terminal text: wide characters take two cells, combining marks none.
enum TextWidth {
  /// The number of terminal cells `character` occupies as ``drawable(_:)`` writes it: the sum of
  /// its scalars' cells, as curses counts them (a base letter with combining marks takes one
  /// cell; an emoji sequence joined with U+200D shows its joiners escaped, so each emoji takes
  /// the cells curses counts for it).
  static func columns(of character: Character) -> Int {
    character.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
  }

  private static func columns(of scalar: Unicode.Scalar) -> Int {
    if let escape = escape(scalar) { return escape.utf8.count }
    return max(0, Int(wcwidth(wchar_t(bitPattern: scalar.value))))
  }

  /// The escape that stands for `scalar` on the screen, or nil when the terminal shows it: what
  /// the core's one escaping rule escapes (``TerminalText/escape(_:)``: controls, bidirectional
  /// and zero-width characters), or what the locale cannot show (`wcwidth` answers -1: every
  /// non-ASCII character outside a UTF-8 locale, `\u{fc}` for `ü`).
  private static func escape(_ scalar: Unicode.Scalar) -> String? {
    if let escape = TerminalText.escape(scalar) { return escape }
    guard !scalar.isASCII, wcwidth(wchar_t(bitPattern: scalar.value)) < 0 else { return nil }
    return "\\u{\(String(scalar.value, radix: 16))}"
  }

  /// `text` as the terminal is sent it: controls and characters the locale cannot show as
  /// escapes; its cells are exactly ``columns(_:)`` of `text`.
  static func drawable(_ text: String) -> String {
    if isPrintableASCII(text) { return text }
    return TerminalText.escaped(text, by: escape)
  }

  private static func isPrintableASCII(_ text: String) -> Bool {
    text.utf8.allSatisfy { (0x20..<0x7F).contains($0) }
  }

  /// The number of terminal cells `text` occupies.
  static func columns(_ text: String) -> Int {
    // Printable ASCII, the common case: one cell a byte, no grapheme breaking needed.
    if isPrintableASCII(text) { return text.utf8.count }
    return text.reduce(0) { $0 + columns(of: $1) }
  }

  /// `text` cut to at most `width` cells, ending in `ellipsis` when cut, never splitting a
  /// wide character, and padded with spaces to exactly `width` cells when `pad` is set.
  static func fit(_ text: String, width: Int, ellipsis: String, pad: Bool = true) -> String {
    guard width > 0 else { return "" }
    let total = columns(text)
    if total <= width {
      return pad ? text + String(repeating: " ", count: width - total) : text
    }
    let room = max(0, width - columns(ellipsis))
    var result = ""
    var used = 0
    for character in text {
      let cells = columns(of: character)
      if used + cells > room { break }
      result.append(character)
      used += cells
    }
    result += ellipsis
    used += columns(ellipsis)
    return pad && used < width ? result + String(repeating: " ", count: width - used) : result
  }

  /// `text` cut in the middle to at most `width` cells (paths keep their start and file name),
  /// padded to `width`.
  static func fitMiddle(_ text: String, width: Int, ellipsis: String) -> String {
    guard columns(text) > width, width > columns(ellipsis) + 1 else {
      return fit(text, width: width, ellipsis: ellipsis)
    }
    let room = width - columns(ellipsis)
    let head = fit(text, width: room - room / 2, ellipsis: "", pad: false)
    var tail = ""
    for character in text.reversed() {
      guard columns(tail) + columns(of: character) <= room / 2 else { break }
      tail.insert(character, at: tail.startIndex)
    }
    return fit(head + ellipsis + tail, width: width, ellipsis: ellipsis)
  }

  /// `text` in lines of at most `width` cells, broken after a space where one is near enough
  /// (prose), else between characters (JSON, paths), never inside a wide character; one empty
  /// line for empty text.
  static func wrap(_ text: String, width: Int) -> [String] {
    let width = max(1, width)
    var lines: [String] = []
    var rest = Substring(singleLine(text))
    while columns(String(rest)) > width {
      var cut = rest.startIndex
      var used = 0
      while cut < rest.endIndex, used + columns(of: rest[cut]) <= width {
        used += columns(of: rest[cut])
        cut = rest.index(after: cut)
      }
      if cut == rest.startIndex { cut = rest.index(after: cut) }  // wider than the line itself
      if let space = rest[..<cut].lastIndex(of: " "),
        rest.distance(from: rest.startIndex, to: space) > width / 2
      {
        cut = rest.index(after: space)
      }
      lines.append(String(rest[..<cut]))
      rest = rest[cut...]
    }
    return lines + [String(rest)]
  }

  /// `text` with control characters replaced by visible escapes, so one value stays one line
  /// (the core's ``TerminalText/escaped(_:)``, shared with the command-line verbs).
  static func singleLine(_ text: String) -> String {
    TerminalText.escaped(text)
  }
}

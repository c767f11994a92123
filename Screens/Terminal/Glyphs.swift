import Foundation

/// The symbols the editor draws, in a Unicode set and an ASCII fallback for other terminals.
struct Glyphs: Sendable {
  /// Marks a value that differs from its default.
  let modified: String
  /// Ends text cut to fit its column.
  let ellipsis: String
  /// Separates the objects pane from the rows pane.
  let separator: String
  /// Marks the object whose rows are shown.
  let selected: String
  /// Prefixes a row's value-redraw counter.
  let redraws: String

  /// Glyphs for UTF-8 terminals.
  static let unicode = Glyphs(modified: "*", ellipsis: "…", separator: "│", selected: "▸", redraws: "↻")
  /// Glyphs for terminals that cannot show UTF-8.
  static let ascii = Glyphs(modified: "*", ellipsis: "~", separator: "|", selected: ">", redraws: "r")

  /// The set that fits the current locale's character encoding.
  static var current: Glyphs {
    let codeset = String(cString: nl_langinfo(Int32(CODESET))).uppercased()
    return codeset.contains("UTF-8") || codeset.contains("UTF8") ? unicode : ascii
  }
}

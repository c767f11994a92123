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
  /// Marks a row another process changed a moment ago.
  let changed: String
  /// Follows the name of an object on the cloud key-value store.
  let cloud: String
  /// Marks a row whose stored value does not decode as its type.
  let invalid = "!"
  /// Marks a row whose value an administrator made mandatory (it cannot be edited).
  let locked = "#"

  /// Glyphs for UTF-8 terminals.
  static let unicode = Glyphs(
    modified: "*", ellipsis: "…", separator: "│", selected: "▸", redraws: "↻", changed: "~",
    cloud: "☁")
  /// Glyphs for terminals that cannot show UTF-8.
  static let ascii = Glyphs(
    modified: "*", ellipsis: "...", separator: "|", selected: ">", redraws: "r", changed: "~",
    cloud: "(cloud)")

  /// Whether this is the ASCII set.
  var isASCII: Bool { separator.unicodeScalars.allSatisfy(\.isASCII) }

  /// `text` (key names, separators, a tree row's disclosure triangle) with the arrows and dots
  /// the editor writes spelled in ASCII when this is the ASCII set.
  func spelled(_ text: String) -> String {
    guard isASCII else { return text }
    let replacements: [Character: String] = [
      "↑": "^", "↓": "v", "←": "<", "→": ">", "·": "-", "…": "...", "↻": "r", "▸": ">",
      "▾": "v",
    ]
    return text.reduce(into: "") { result, character in
      result += replacements[character] ?? String(character)
    }
  }

  /// The set that fits the current locale's character encoding.
  static var current: Glyphs {
    let codeset = String(cString: nl_langinfo(Int32(CODESET))).uppercased()
    return codeset.contains("UTF-8") || codeset.contains("UTF8") ? unicode : ascii
  }
}

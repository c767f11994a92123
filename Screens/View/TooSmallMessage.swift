/// What the editor draws instead of itself in a terminal smaller than
/// ``ScreenLayout/minimumSize``: the longest of its forms that fits whole, broken between words
/// over the lines the terminal has (`Terminal too small: need 40x8` on one line at 30×6, over
/// two at 20×5).
enum TooSmallMessage {
  /// The message for a terminal of `size`, one string a line, none wider than the terminal;
  /// cut only when not even the bare size (`40x8`) fits.
  static func lines(for size: TerminalSize) -> [String] {
    let need = ScreenLayout.minimumSize
    let sizeText = "\(need.columns)x\(need.rows)"
    let forms = ["Terminal too small: need \(sizeText)", "Too small: need \(sizeText)", sizeText]
    for form in forms {
      if let lines = wrapped(form, width: size.columns), lines.count <= size.rows { return lines }
    }
    return [String(sizeText.prefix(size.columns))]
  }

  /// `text` broken between words into lines of at most `width` characters; nil when a word is
  /// wider than that.
  private static func wrapped(_ text: String, width: Int) -> [String]? {
    var lines: [String] = []
    for word in text.split(separator: " ").map(String.init) {
      guard word.count <= width else { return nil }
      if let last = lines.last, last.count + 1 + word.count <= width {
        lines[lines.count - 1] = last + " " + word
      } else {
        lines.append(word)
      }
    }
    return lines
  }
}

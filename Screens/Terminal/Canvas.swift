/// How a run of text looks: attributes, which carry every cue, and roles, which a canvas with
/// colour also paints in the role's colour (and one without ignores).
struct TextStyle: OptionSet, Hashable, Sendable {
  let rawValue: UInt8
  static let bold = TextStyle(rawValue: 1 << 0)
  static let reverse = TextStyle(rawValue: 1 << 1)
  static let dim = TextStyle(rawValue: 1 << 2)
  static let underline = TextStyle(rawValue: 1 << 3)
  /// Role: the header bar.
  static let title = TextStyle(rawValue: 1 << 4)
  /// Role: a row another process just changed.
  static let changed = TextStyle(rawValue: 1 << 5)
  /// Role: a refusal or failure.
  static let alert = TextStyle(rawValue: 1 << 6)
}

/// The size of a drawing surface in terminal cells.
struct TerminalSize: Equatable, Sendable {
  var rows: Int
  var columns: Int
}

/// A surface the editor draws on: ncurses for the terminal, an in-memory grid for tests.
///
/// Callers fit text to the cells they write (see ``TextWidth``); a canvas clips at its edge.
@MainActor
protocol Canvas: AnyObject {
  /// The current size; may change after a resize.
  var size: TerminalSize { get }
  /// Writes `text` starting at `row`, `column`.
  func put(_ text: String, row: Int, column: Int, style: TextStyle)
  /// Blanks `row` from `column` to the right edge.
  func clearLine(_ row: Int, from column: Int)
  /// Blanks the whole surface.
  func clearAll()
  /// Places the text cursor, or hides it when `position` is nil.
  func setCursor(_ position: (row: Int, column: Int)?)
  /// Shows everything drawn since the last call (one terminal update per frame).
  func present()
  /// The bytes the last ``present()`` sent to the terminal; nil when not known.
  var bytesPresented: Int? { get }
}

extension Canvas {
  var bytesPresented: Int? { nil }
}

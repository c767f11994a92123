import Foundation

/// A ``Canvas`` that keeps its cells in memory, for tests and screen captures.
@MainActor
final class MemoryCanvas: Canvas {
  private struct Cell {
    var text: String = " "  // "" for the second cell of a wide character
    var style: TextStyle = []
  }

  private(set) var size: TerminalSize
  private var cells: [[Cell]]
  /// Where the cursor was placed last; nil when hidden.
  private(set) var cursor: (row: Int, column: Int)?
  /// How many frames were presented (``present()`` calls): a test counts frames per change.
  private(set) var presentCount = 0

  /// A canvas of `rows` × `columns` cells. Text is measured as in a UTF-8 terminal: the
  /// process's character type becomes `C.UTF-8` (`wcwidth` follows it).
  init(rows: Int, columns: Int) {
    setlocale(LC_CTYPE, "C.UTF-8")
    size = TerminalSize(rows: rows, columns: columns)
    cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
  }

  /// Changes the size, keeping what fits (as a terminal resize does).
  func resize(rows: Int, columns: Int) {
    size = TerminalSize(rows: rows, columns: columns)
    cells = (0..<rows).map { row in
      (0..<columns).map { column in
        row < cells.count && column < cells[row].count ? cells[row][column] : Cell()
      }
    }
  }

  func put(_ text: String, row: Int, column: Int, style: TextStyle) {
    guard row >= 0, row < size.rows else { return }
    var column = column
    for character in TextWidth.drawable(text) {
      let width = TextWidth.columns(of: character)
      guard width > 0 else { continue }
      guard column + width <= size.columns else { return }
      cells[row][column] = Cell(text: String(character), style: style)
      if width == 2 { cells[row][column + 1] = Cell(text: "", style: style) }
      column += width
    }
  }

  func clearLine(_ row: Int, from column: Int) {
    guard row >= 0, row < size.rows else { return }
    for index in max(0, column)..<size.columns { cells[row][index] = Cell() }
  }

  func clearAll() {
    for row in 0..<size.rows { clearLine(row, from: 0) }
  }

  func setCursor(_ position: (row: Int, column: Int)?) {
    cursor = position
  }

  func present() {
    presentCount += 1
  }

  /// The text of `row` with trailing spaces removed.
  func line(_ row: Int) -> String {
    let text = cells[row].map(\.text).joined()
    return String(text.reversed().drop(while: { $0 == " " }).reversed())
  }

  /// Every row's text, trailing spaces removed.
  var lines: [String] { (0..<size.rows).map(line) }

  /// The style of the cell at `row`, `column`.
  func style(row: Int, column: Int) -> TextStyle {
    cells[row][column].style
  }
}

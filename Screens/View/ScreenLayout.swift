/// Where each part of the editor goes for one terminal size and one source's rows.
///
///     line 0            header: program, object, file, badges
///     line 1            "Objects" heading │ column headings
///     lines 2…h-3       objects list      │ property rows
///     line h-2          status: message, edit field, or the focused row's details
///     line h-1          key bar
struct ScreenLayout: Equatable {
  /// The smallest terminal the editor draws in.
  static let minimumSize = TerminalSize(rows: 8, columns: 40)

  let size: TerminalSize
  /// Width of the objects pane; the separator follows it.
  let objectsWidth: Int
  /// Cell widths of the row columns; 0 hides a column.
  let nameWidth, keyWidth, typeWidth, valueWidth, counterWidth: Int

  /// Lays out `size` for rows with the given column texts (the rows on screen); `showsKeys` adds the key column
  /// when some row's key is not its name (pointless otherwise).
  init(
    size: TerminalSize, titles: [String], rows: [PropertyRow], showsKeys: Bool,
    showsRedrawCounts: Bool
  ) {
    self.size = size
    let widest = { (texts: [String], cap: Int) in min(cap, texts.map(TextWidth.columns).max() ?? 0)
    }
    objectsWidth = max(12, min(widest(titles, 28) + 4, size.columns / 4))
    let rowsWidth = size.columns - objectsWidth - 1
    counterWidth = showsRedrawCounts ? 9 : 0
    nameWidth = max(4, widest(rows.map(\.name), rowsWidth / 3))
    let keysDiffer = rows.contains { $0.key != nil && $0.key != $0.name }
    keyWidth =
      showsKeys && keysDiffer ? max(3, widest(rows.map { $0.key ?? "-" }, rowsWidth / 4)) : 0
    typeWidth = max(4, widest(rows.map(\.typeName), 16))
    let used = 2 + nameWidth + (keyWidth > 0 ? keyWidth + 2 : 0) + typeWidth + 2 + 2 + counterWidth
    valueWidth = max(0, rowsWidth - used)
  }

  var isTooSmall: Bool {
    size.rows < Self.minimumSize.rows || size.columns < Self.minimumSize.columns
  }

  /// First column of the rows pane.
  var rowsColumn: Int { objectsWidth + 1 }
  /// Width of the rows pane.
  var rowsWidth: Int { size.columns - rowsColumn }
  /// The screen line of the first list entry in either pane.
  let firstListLine = 2
  /// How many list entries fit.
  var visibleCount: Int { Self.visibleCount(in: size) }

  /// Sources with more rows than this get columns fitted to the rows on screen only.
  static let rowsFittedWhole = 1_000

  /// How many list lines a terminal of `size` shows.
  static func visibleCount(in size: TerminalSize) -> Int { max(0, size.rows - 4) }
  var statusLine: Int { size.rows - 2 }
  var keyBarLine: Int { size.rows - 1 }
}

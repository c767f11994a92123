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

  /// Lays out `size` for rows with the given column texts (the rows it is
  /// sized for, see `EditorScreen.rowsToFit`); `showsKeys` adds the key column when some row's key is not its name (pointless otherwise) and the pane has room for it.
  ///
  /// The value comes first: it gets its whole width when it fits, and at least half the room
  /// otherwise; name, type and key then share the rest (each its whole width when it fits, else
  /// at least a few cells, name before type before key), and what they leave goes to the value.
  init(
    size: TerminalSize, titles: [String], rows: [PropertyRow], showsKeys: Bool,
    showsRedrawCounts: Bool
  ) {
    self.size = size
    let widest = { (texts: [String], floor: String) in
      max(TextWidth.columns(floor), texts.map(TextWidth.columns).max() ?? 0)
    }
    objectsWidth = Self.objectsWidth(titles: titles, size: size)
    let rowsWidth = size.columns - objectsWidth - 1
    counterWidth = showsRedrawCounts ? 14 : 0
    let keysDiffer = rows.contains { $0.key != nil && $0.key != $0.name }
    // Below 50 cells the key column would starve the value; `i` shows the key.
    let showsKeyColumn = showsKeys && keysDiffer && rowsWidth >= 50
    // Marker and space, two cells after name, key and type, then the counter (with its gap).
    let room = max(0, rowsWidth - 2 - 2 - (showsKeyColumn ? 2 : 0) - 2 - counterWidth)
    // name, key, type: what each wants, and what each keeps at least when the room is short.
    let wanted = [
      widest(rows.map(\.name), "Name"),
      showsKeyColumn ? widest(rows.map { $0.key ?? "-" }, "Key") : 0,
      widest(rows.map(\.typeName), "Type"),
    ]
    let floors = zip(wanted, [16, 12, 10]).map { min($0, $1) }
    let valueWanted = widest(rows.map(\.value), "Value")
    let value = min(valueWanted, max(room - floors.reduce(0, +), room / 2))
    var left = room - value
    // The floors, shrunk alike when even they do not fit, then growth in column order.
    var widths = floors.map {
      left >= floors.reduce(0, +) ? $0 : $0 * left / max(1, floors.reduce(0, +))
    }
    left -= widths.reduce(0, +)
    for column in [0, 2, 1] {
      let growth = min(left, wanted[column] - widths[column])
      widths[column] += growth
      left -= growth
    }
    nameWidth = widths[0]
    keyWidth = widths[1]
    typeWidth = widths[2]
    valueWidth = value + left
  }

  /// The objects pane's width: the widest title (up to 28 cells) and a margin, within a quarter
  /// of the screen, at least 12 cells.
  static func objectsWidth(titles: [String], size: TerminalSize) -> Int {
    let widest = titles.map(TextWidth.columns).max() ?? 0
    return max(12, min(min(28, widest) + 4, size.columns / 4))
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

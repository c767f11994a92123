/// Where the user is in the editor and what the status line says; no drawing state.
struct EditorState {
  /// The two panes.
  enum Pane: Equatable { case objects, rows }

  /// Browsing rows, or editing one row's value in a line editor.
  enum Mode: Equatable {
    case browsing
    case editing(row: Int, format: TextValueFormat, field: LineEditor)
  }

  /// A line for the status bar.
  struct Message: Equatable {
    var text: String
    var isError: Bool
  }

  var pane = Pane.rows
  /// The source shown in the rows pane.
  var sourceIndex = 0
  /// The focused row of that source.
  var rowIndex = 0
  var mode = Mode.browsing
  var message: Message?
  var showsRedrawCounts = false
  var isFinished = false
}

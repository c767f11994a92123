/// Where the user is in the editor and what the status line says; no drawing state.
struct EditorState {
  /// The two panes.
  enum Pane: Equatable { case objects, rows }

  /// What keys do right now.
  enum Mode: Equatable {
    case browsing
    /// Editing one row's value in a line editor.
    case editing(row: Int, format: TextValueFormat, field: LineEditor)
    /// Typing a search; `origin` is where the focus was when `/` was pressed (Esc goes back).
    case searching(field: LineEditor, origin: Focus)
    /// The key list or the focused row's details cover the rows pane; any key closes them.
    case overlay(Overlay)
    /// Typing the answer to a prompt of a raw suite (a new key, a new name, a new element).
    case prompting(Prompt, field: LineEditor)
    /// Picking one of `choices` (a `Bool`'s or an enumeration's values, as shown) for one row;
    /// `selected` is the highlighted one. Nothing is stored before Enter.
    case picking(row: Int, choices: [String], selected: Int)
    /// The change log covers the rows pane: `selected` is the highlighted entry (newest first),
    /// `key` the key it is filtered to, if any.
    case changeLog(selected: Int, key: String?)

    /// Whether keys go to a line editor (a value or a search being typed).
    var hasField: Bool {
      switch self {
      case .editing, .searching, .prompting: true
      case .browsing, .overlay, .picking, .changeLog: false
      }
    }

    /// Whether the status line shows what is being typed or picked (messages go above it).
    var ownsStatusLine: Bool {
      if case .picking = self { return true }
      return hasField
    }

    /// Whether something covers the rows pane (an overlay, the change log).
    var coversRows: Bool {
      if case .changeLog = self { return true }
      return overlay != nil
    }

    /// What covers the rows pane, if anything.
    var overlay: Overlay? {
      if case .overlay(let overlay) = self { overlay } else { nil }
    }
  }

  /// What a prompt asks for.
  enum Prompt: Equatable {
    /// `key [-type] value`: a new top-level key.
    case newKey
    /// A new name for the top-level key of the row.
    case newName(row: Int)
    /// `[-type] value`: an element appended to the array of the row.
    case newElement(row: Int)
  }

  /// What covers the rows pane.
  enum Overlay: Equatable {
    /// Every key of the editor.
    case help
    /// The focused row in full: value, type, key, default, allowed values, description.
    case details
  }

  /// A focused row of one source.
  struct Focus: Equatable {
    var source: Int
    var row: Int
  }

  /// A line for the status bar.
  struct Message: Equatable {
    var text: String
    var isError: Bool
    /// The source whose unreadable file the message is about: it goes once that source reads
    /// again (``EditorSession/dropMessageOfReadableSource()``).
    var unreadableSource: Int? = nil
  }

  var pane = Pane.rows
  /// The source shown in the rows pane.
  var sourceIndex = 0
  /// The focused row of that source (an index into the source's rows, not the screen line).
  var rowIndex = 0
  var mode = Mode.browsing
  var message: Message?
  /// A command waiting for `y` (the status line asks); any other key drops it.
  var confirmation: EditorCommand?
  /// The row being edited whose value changed elsewhere since: its next Enter asks before
  /// overwriting (Enter again keeps the draft, Esc takes the other value).
  var changedElsewhereWhileEditing: Int?
  var showsRedrawCounts = false
  /// Only rows whose value differs from the default are listed.
  var showsModifiedOnly = false
  /// The last search, for n and N.
  var query = ""
  var isFinished = false
  /// What changed outside a key (a new suite appeared) and must be drawn at the next frame.
  var outsideDamage = Damage()

  var focus: Focus {
    get { Focus(source: sourceIndex, row: rowIndex) }
    set {
      sourceIndex = newValue.source
      rowIndex = newValue.row
    }
  }
}

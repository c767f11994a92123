/// What a key does while browsing.
enum EditorCommand: Hashable, Sendable {
  case moveUp, moveDown, pageUp, pageDown, moveToTop, moveToBottom
  /// Moves the focus to the objects pane (←) or the rows pane (→), or to the other one (Tab);
  /// on an enumeration row ← and → pick the previous or next case instead.
  case focusObjects, focusRows, switchPane
  /// Enter: edits a value, opens the picker of a flag or an enumeration, or opens the focused
  /// object.
  case activate
  /// Space: toggles a `Bool`, picks the next case of an enumeration.
  case toggle
  /// Removes the focused row's stored value (back to its default).
  case resetRow
  /// Removes every stored value of the shown object.
  case resetObject
  /// Undoes the last change made in this session (edit, toggle, reset).
  case undo
  /// Lists only the rows whose value differs from the default, or all rows again.
  case toggleModifiedOnly
  /// Starts a search over names, keys, descriptions and values; n and N step through the matches.
  case search, nextMatch, previousMatch
  case help
  /// Shows the focused row in full (long values, the whole description).
  case details
  /// In a raw suite: adds a key, or an element to the focused array.
  case addEntry
  /// In a raw suite: gives the focused top-level key another name.
  case renameKey
  /// Edits the focused value in the user's editor (`$VISUAL`, `$EDITOR`).
  case editExternally
  /// Shows or hides each row's value-redraw counter.
  case toggleRedrawCounts
  /// Reads a file or suite again from disk (see ``ReloadableRowSource``).
  case reload
  /// Shows every change seen since the editor started (``ChangeLog``).
  case changeLog
  case quit
}

/// One line of the browse key table: the keys, the command, and the hint for the key bar.
struct KeyBinding: Sendable {
  let keys: [KeyPress]
  let command: EditorCommand
  /// The keys as the help screen and key bar name them.
  let label: String
  /// What the command does, for the help screen; nil when a twin's line covers it.
  let help: String?
  /// The text in the key bar (nil: not shown there).
  var hint: String?
}

/// The browse-mode key table; the key bar and the help screen are drawn from it.
enum KeyMap {
  static let browse: [KeyBinding] = [
    KeyBinding(keys: [.up, .character("k")], command: .moveUp, label: "↑ k", help: nil),
    KeyBinding(
      keys: [.down, .character("j")], command: .moveDown, label: "↑↓ j k",
      help: "previous / next row", hint: "↑↓ move"),
    KeyBinding(keys: [.pageUp], command: .pageUp, label: "PgUp", help: nil),
    KeyBinding(
      keys: [.pageDown], command: .pageDown, label: "PgUp PgDn", help: "one page up / down"),
    KeyBinding(keys: [.home, .character("g")], command: .moveToTop, label: "Home g", help: nil),
    KeyBinding(
      keys: [.end, .character("G")], command: .moveToBottom, label: "Home End",
      help: "first / last row (g G)"),
    KeyBinding(keys: [.left, .character("h")], command: .focusObjects, label: "← h", help: nil),
    KeyBinding(
      keys: [.right, .character("l")], command: .focusRows, label: "← → h l",
      help: "panes; previous / next case of an enum"),
    KeyBinding(
      keys: [.tab], command: .switchPane, label: "Tab", help: "other pane", hint: "Tab pane"),
    KeyBinding(
      keys: [.enter], command: .activate, label: "Enter",
      help: "edit or pick the value; open an object", hint: "Enter edit"),
    KeyBinding(
      keys: [.character(" ")], command: .toggle, label: "Space",
      help: "toggle a Bool, next case of an enum", hint: "Space toggle"),
    KeyBinding(
      keys: [.character("d"), .delete], command: .resetRow, label: "d Del",
      help: "reset to default (the stored value is removed)", hint: "d default"),
    KeyBinding(
      keys: [.character("D")], command: .resetObject, label: "D",
      help: "reset every value of the object"),
    KeyBinding(
      keys: [.character("u")], command: .undo, label: "u", help: "undo the last change",
      hint: "u undo"),
    KeyBinding(
      keys: [.character("/")], command: .search, label: "/",
      help: "search names, descriptions and values", hint: "/ find"),
    KeyBinding(
      keys: [.character("n")], command: .nextMatch, label: "n N", help: "next / previous match"),
    KeyBinding(keys: [.character("N")], command: .previousMatch, label: "N", help: nil),
    KeyBinding(
      keys: [.character("i")], command: .details, label: "i",
      help: "the focused value in full and its description"),
    KeyBinding(
      keys: [.character("m")], command: .toggleModifiedOnly, label: "m",
      help: "show modified rows only / all rows"),
    KeyBinding(
      keys: [.character("e"), externalEditorKey], command: .editExternally, label: "e C-g",
      help: "edit in $VISUAL / $EDITOR, collections as JSON"),
    KeyBinding(
      keys: [.character("a")], command: .addEntry, label: "a",
      help: "add a key (name -type value) or array element"),
    KeyBinding(
      keys: [.character("R")], command: .renameKey, label: "R", help: "rename the key"),
    KeyBinding(
      keys: [.character("c")], command: .toggleRedrawCounts, label: "c", help: nil),
    KeyBinding(
      // One help line for both: the key list fits 24 lines.
      keys: [.character("L")], command: .changeLog, label: "c L",
      help: "counts per row; every change seen, by whom"),
    KeyBinding(
      keys: [.character("r")], command: .reload, label: "r",
      help: "read again from disk (drops a file's edits)", hint: "r reload"),
    KeyBinding(
      // 265 is KEY_F(1).
      keys: [.character("?"), .other(265)], command: .help, label: "? F1",
      help: "this help",
      hint: "? help"),
    KeyBinding(
      keys: [.character("q")], command: .quit, label: "q", help: "quit", hint: "q quit"),
  ]

  /// The help screen's lines (label, text), leaving out `a` `R` where keys are fixed.
  static func helpLines(editsKeys: Bool = false) -> [(label: String, text: String)] {
    browse.compactMap { binding in
      guard editsKeys || ![.addEntry, .renameKey].contains(binding.command) else { return nil }
      return binding.help.map { (binding.label, $0) }
    }
  }

  /// Ctrl-G: the value in the user's editor, in a field or on a row.
  static let externalEditorKey = KeyPress.character("\u{7}")

  /// The hints for the key bar while a value is being edited.
  static let editingHints = [
    "Enter save", "Esc restore", "←→ C-a C-e move", "C-u C-k C-w erase", "C-g $EDITOR",
  ]
  /// The hints for the key bar while a value is picked.
  static let pickingHints = ["←→ pick", "Enter save", "Esc cancel"]
  /// The hints for the key bar while a search is typed.
  static let searchingHints = ["Enter keep", "Esc back", "then n/N next/previous"]
  /// The hints for the key bar while the change log is shown.
  static let changeLogHints = [
    "↑↓ move", "f this key/all", "Enter jump", "u undo it", "Esc close",
  ]
  /// The hints for the key bar while the help or the details are shown.
  static let overlayHints = ["any key: close"]

  private static let browseCommands: [KeyPress: EditorCommand] = Dictionary(
    browse.flatMap { binding in binding.keys.map { ($0, binding.command) } },
    uniquingKeysWith: { first, _ in first })

  /// The browse command bound to `key`, if any.
  static func command(for key: KeyPress) -> EditorCommand? {
    browseCommands[key]
  }

  /// The key-bar hints of browse mode for a row edited as `editing` (nil: no row focused), in a
  /// source whose refused saves point at `r` (a raw suite, a file) or not; with `readOnly` (`--readonly`) no key that changes a value
  /// is offered.
  static func browseHints(for editing: RowEditing?, reloads: Bool = false, readOnly: Bool = false)
    -> [String]
  {
    browse.compactMap { binding in
      let changesAValue =
        [.toggle, .resetRow, .undo].contains(binding.command)
        || (binding.command == .activate && editing != nil)
      if readOnly && changesAValue { return nil }
      return switch (binding.command, editing) {
      case (.reload, _) where !reloads: nil
      case (.activate, .toggle?), (.activate, .choice?), (.toggle, .text?), (.toggle, .readOnly?),
        (.toggle, nil):
        nil
      case (.toggle, .choice?): "Space ←→ cycle"
      case (.activate, nil): "Enter open"
      default: binding.hint
      }
    }
  }
}

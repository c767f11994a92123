/// What a key does while browsing.
enum EditorCommand: Hashable, Sendable {
  case moveUp, moveDown, pageUp, pageDown, moveToTop, moveToBottom
  /// Moves the focus to the objects pane (←) or the rows pane (→), or to the other one (Tab).
  case focusObjects, focusRows, switchPane
  /// Enter: edits a text value, toggles a flag, or opens the focused object's rows.
  case activate
  /// Space: toggles a `Bool`.
  case toggle
  /// Shows or hides each row's value-redraw counter.
  case toggleRedrawCounts
  case quit
}

/// One line of the browse key table: the keys, the command, and the hint for the key bar.
struct KeyBinding: Sendable {
  let keys: [KeyPress]
  let command: EditorCommand
  /// The text in the key bar (nil: not shown there).
  let hint: String?
}

/// The browse-mode key table; the key bar and (later) the help screen are drawn from it.
enum KeyMap {
  static let browse: [KeyBinding] = [
    KeyBinding(keys: [.up, .character("k")], command: .moveUp, hint: nil),
    KeyBinding(keys: [.down, .character("j")], command: .moveDown, hint: "↑↓ move"),
    KeyBinding(keys: [.pageUp], command: .pageUp, hint: nil),
    KeyBinding(keys: [.pageDown], command: .pageDown, hint: nil),
    KeyBinding(keys: [.home, .character("g")], command: .moveToTop, hint: nil),
    KeyBinding(keys: [.end, .character("G")], command: .moveToBottom, hint: nil),
    KeyBinding(keys: [.left, .character("h")], command: .focusObjects, hint: nil),
    KeyBinding(keys: [.right, .character("l")], command: .focusRows, hint: nil),
    KeyBinding(keys: [.tab], command: .switchPane, hint: "Tab pane"),
    KeyBinding(keys: [.enter], command: .activate, hint: "Enter edit"),
    KeyBinding(keys: [.character(" ")], command: .toggle, hint: "Space toggle"),
    KeyBinding(keys: [.character("c")], command: .toggleRedrawCounts, hint: "c redraws"),
    KeyBinding(keys: [.character("q")], command: .quit, hint: "q quit"),
  ]

  /// The hints for the key bar while a value is being edited.
  static let editingHints = ["Enter save", "Esc cancel", "←→ move"]

  private static let browseCommands: [KeyPress: EditorCommand] = Dictionary(
    browse.flatMap { binding in binding.keys.map { ($0, binding.command) } },
    uniquingKeysWith: { first, _ in first })

  /// The browse command bound to `key`, if any.
  static func command(for key: KeyPress) -> EditorCommand? {
    browseCommands[key]
  }
}

/// One key the user pressed, decoded from the terminal.
enum KeyPress: Hashable, Sendable {
  case character(Character)
  /// A character typed with Meta (Alt), which terminals send as Esc followed by the character.
  case meta(Character)
  case up, down, left, right
  case pageUp, pageDown, home, end
  case enter, escape, tab, backspace, delete
  /// The terminal changed size.
  case resize
  /// A function key the editor does not use, by its curses code.
  case other(Int32)
}

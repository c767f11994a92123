import CNcursesW
import Foundation
import ObservableDefaultsCore

/// The ncurses ``Canvas``: owns curses on the thread that creates it and restores the terminal
/// in ``end()``.
@MainActor
final class NcursesCanvas: Canvas {
  private let window: UnsafeMutablePointer<WINDOW>
  private let screen: OpaquePointer?
  private var isEnded = false
  /// Whether roles are painted in colour (asked for, and the terminal has colour).
  let usesColor: Bool
  private(set) var bytesPresented: Int?

  /// Starts curses on the process's terminal (standard input and output).
  ///
  /// - Parameter color: whether to paint roles in colour when the terminal has colour.
  /// - Throws: ``SettingsEditorError`` when standard input or output is not a terminal, the
  ///   terminal type (`TERM`) is missing, `dumb` or unknown to terminfo, or ncurses cannot be
  ///   loaded.
  init(color: Bool) throws(SettingsEditorError) {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
      throw .notATerminal
    }
    let type = ProcessEnvironment.value("TERM") ?? ""
    guard !type.isEmpty, type != "dumb" else { throw .unsupportedTerminal(type) }
    if let failure = cnc_load() { throw .cursesUnavailable(String(cString: failure)) }
    setlocale(LC_ALL, "")
    guard let screen = cnc_newterm_on_stdio(type), let window = cnc_stdscr() else {
      throw .unsupportedTerminal(type)
    }
    self.screen = screen
    self.window = window
    usesColor = Self.configure(window, color: color)
  }

  /// Starts curses headless on `terminal` (e.g. "xterm"), drawing into `/dev/null`, for tests.
  /// The size is the terminal type's default unless `LINES` and `COLUMNS` are set. Returns nil
  /// when the terminal type is unknown or ncurses cannot be loaded.
  init?(headless terminal: String, color: Bool = false) {
    setlocale(LC_ALL, "")
    guard let screen = cnc_newterm_on_paths(terminal, "/dev/null", "/dev/null") else { return nil }
    set_term(screen)
    self.screen = screen
    guard let window = cnc_stdscr() else { return nil }
    self.window = window
    usesColor = Self.configure(window, color: color)
  }

  /// Sets the input modes and, when `color` is set and the terminal has colour, one colour
  /// pair per role over the terminal's own background; returns whether colour is on.
  private static func configure(_ window: UnsafeMutablePointer<WINDOW>, color: Bool) -> Bool {
    cbreak()
    noecho()
    nonl()
    keypad(window, true)
    nodelay(window, true)
    curs_set(0)
    set_escdelay(25)
    guard color, has_colors() else { return false }
    start_color()
    use_default_colors()
    for (pair, foreground) in rolePairs { init_pair(pair, foreground, -1) }
    return true
  }

  /// The colour pair of each role and its foreground colour.
  private static let rolePairs: [(pair: Int16, foreground: Int16)] = [
    (1, Int16(COLOR_CYAN)), (2, Int16(COLOR_YELLOW)), (3, Int16(COLOR_RED)),
  ]
  private static let roles: [(style: TextStyle, pair: Int16)] = [
    (.title, 1), (.changed, 2), (.alert, 3),
  ]

  var size: TerminalSize {
    TerminalSize(rows: Int(getmaxy(window)), columns: Int(getmaxx(window)))
  }

  func put(_ text: String, row: Int, column: Int, style: TextStyle) {
    wattrset(window, Int32(bitPattern: attributes(style)))
    // Cut at the right edge: curses would wrap the rest onto the next line.
    let room = Int(getmaxx(window)) - column
    let shown = TextWidth.fit(TextWidth.drawable(text), width: room, ellipsis: "", pad: false)
    var wide = shown.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
    wide.append(0)
    _ = mvwaddwstr(window, Int32(row), Int32(column), wide)
    wattrset(window, Int32(bitPattern: cnc_a_normal()))
  }

  func clearLine(_ row: Int, from column: Int) {
    wmove(window, Int32(row), Int32(column))
    wclrtoeol(window)
  }

  func clearAll() {
    werase(window)
  }

  func setCursor(_ position: (row: Int, column: Int)?) {
    if let position {
      wmove(window, Int32(position.row), Int32(position.column))
      curs_set(1)
    } else {
      curs_set(0)
    }
  }

  func present() {
    wnoutrefresh(window)
    let before = ThreadWrites.count()
    doupdate()
    bytesPresented = before.flatMap { before in ThreadWrites.count().map { $0 - before } }
  }

  /// Every key waiting in curses' buffer (nodelay: returns at once when none), with the escape
  /// sequences curses did not decode decoded (``TerminalInputDecoder``): Esc followed at once by
  /// a character (in the same read) is that character with Meta.
  func pendingKeys() -> [KeyPress] {
    var input: [TerminalInput] = []
    var value: wint_t = 0
    while true {
      let status = wget_wch(window, &value)
      if status == KEY_CODE_YES {
        input.append(.functionKey(Int32(value)))
      } else if status == OK {
        input.append(.character(UInt32(value)))
      } else {
        return TerminalInputDecoder.keys(from: input)
      }
    }
  }

  /// The text currently shown on `row` (the virtual screen, read back for tests).
  func line(_ row: Int) -> String {
    var buffer = [wchar_t](repeating: 0, count: Int(getmaxx(window)) + 1)
    let count = mvwinnwstr(window, Int32(row), 0, &buffer, Int32(buffer.count - 1))
    guard count > 0 else { return "" }
    let scalars = buffer.prefix(Int(count)).compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars)
    return String(text.reversed().drop(while: { $0 == " " }).reversed())
  }

  /// Lends the terminal to another program (``resume()`` takes it back).
  func suspend() {
    endwin()
  }

  /// Takes the terminal back after ``suspend()``; the next frame repaints every cell.
  func resume() {
    clearok(window, true)
    wnoutrefresh(window)
    doupdate()
  }

  /// Gives the terminal back: leaves curses mode (safe to call more than once).
  func end() {
    guard !isEnded else { return }
    isEnded = true
    endwin()
    if let screen { delscreen(screen) }
  }

  /// The curses attributes of `style`, with the colour pair of its role when colour is on.
  func attributes(_ style: TextStyle) -> attr_t {
    var attributes = cnc_a_normal()
    if usesColor, let role = Self.roles.first(where: { style.contains($0.style) }) {
      attributes |= cnc_color_pair(role.pair)
    }
    if style.contains(.bold) { attributes |= cnc_a_bold() }
    if style.contains(.reverse) { attributes |= cnc_a_reverse() }
    if style.contains(.dim) { attributes |= cnc_a_dim() }
    if style.contains(.underline) { attributes |= cnc_a_underline() }
    return attributes
  }
}

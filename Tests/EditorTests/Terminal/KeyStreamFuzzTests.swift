import Foundation
import TestSupport
import Testing

/// Issue 20: the real editor under a seeded random stream of keys, escape sequences and resizes
/// (an earlier fuzz found 4 silent exits in 9,500 events) either keeps running or exits 0 — or
/// exits with a message on standard error, never silently.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed (CI installs it with apt-get)"))
struct KeyStreamFuzzTests {
  /// One event of the stream.
  private enum Event {
    /// A key by its tmux name.
    case key(String)
    /// Bytes typed as they are (escape sequences no key sends, pastes, wide characters).
    case text(String)
    case resize(columns: Int, rows: Int)
  }

  /// Named keys and Ctrl keys. Left out, as they end or stop the editor by design: `q` (quit),
  /// Ctrl-C and Ctrl-\ (SIGINT, SIGQUIT; see ``signalsEndTheEditorWithAMessage``), Ctrl-Z (SIGTSTP
  /// stops it) and Ctrl-S (the terminal's flow control freezes its output).
  private static let namedKeys =
    [
      "Enter", "Escape", "Tab", "BTab", "BSpace", "Space", "Up", "Down", "Left", "Right", "Home",
      "End", "PPage", "NPage", "DC", "IC", "M-x", "M-Enter", "S-Up", "C-Left",
    ] + (1...12).map { "F\($0)" }
    + "abdefghijklmnoprtuvwxy".map { "C-\($0)" }
  /// Printable characters, `q` left out.
  private static let characters =
    (32...126).compactMap(Unicode.Scalar.init).map(String.init)
    .filter { $0 != "q" } + ["é", "漢", "🎹"]
  /// Escape sequences: cursor keys with modifiers, a bracketed paste, mouse and cursor-position
  /// reports, a window-title query, a lone CSI and a truncated one.
  private static let sequences = [
    "\u{1b}[1;5A", "\u{1b}[200~pasted\ntext\u{1b}[201~", "\u{1b}[<0;10;5M", "\u{1b}[12;40R",
    "\u{1b}]0;title\u{07}", "\u{9b}", "\u{1b}[", "\u{1b}O", "\u{1b}\u{1b}[A", "\u{1b}[99999999~",
  ]

  private static func randomEvent(_ random: inout SeededGenerator) -> Event {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<4:
      return .resize(
        columns: Int.random(in: 10...160, using: &random),
        rows: Int.random(in: 2...50, using: &random))
    case 4..<14: return .text(sequences.randomElement(using: &random) ?? "")
    case 14..<55: return .key(namedKeys.randomElement(using: &random) ?? "")
    default: return .text(characters.randomElement(using: &random) ?? "")
    }
  }

  /// Runs the editor in tmux with its standard error and exit status kept in files; `EDITOR` is
  /// `true`, so `e` and Ctrl-G return at once. The shell survives the signals of Ctrl-C and
  /// Ctrl-\ (the whole foreground process group gets them) to write the status.
  private func start(_ editor: EditorProcess) throws -> (TmuxSession, status: URL, error: URL) {
    let status = editor.preferences.appendingPathComponent("status")
    let error = editor.preferences.appendingPathComponent("error")
    let command =
      "trap : INT QUIT; "
      + editor.shellCommand([], environment: ["EDITOR": "true", "VISUAL": ""])
      + " 2>'\(error.path)'; echo $? >'\(status.path)'"
    let session = try TmuxSession(command: command, columns: 100, rows: 30)
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    return (session, status, error)
  }

  /// The exit status and standard error of the editor, once it has exited.
  private func exit(status: URL, error: URL) -> (status: Int, error: String)? {
    guard let text = try? String(contentsOf: status, encoding: .utf8), text.hasSuffix("\n"),
      let code = Int(text.dropLast())
    else { return nil }
    return (code, (try? String(contentsOf: error, encoding: .utf8)) ?? "")
  }

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func aSeededKeyStreamNeverEndsTheEditorSilently(seed: UInt64) throws {
    let editor = try EditorProcess()
    let (session, status, error) = try start(editor)
    var random = SeededGenerator(seed: seed)
    var sent = 0
    while sent < 300, exit(status: status, error: error) == nil {
      switch Self.randomEvent(&random) {
      case .key(let name): try session.send(name)
      case .text(let text): try session.type(text)
      case .resize(let columns, let rows): try session.resize(columns: columns, rows: rows)
      }
      sent += 1
    }
    // The last keys are still being handled: give the editor a moment to exit, if it does.
    pollBlocking(within: .seconds(1)) { exit(status: status, error: error) != nil }
    guard let ended = exit(status: status, error: error) else {
      #expect(session.isRunning, "seed \(seed): neither running nor exited")
      return
    }
    #expect(
      ended.status == 0 || ended.error.hasPrefix("settings-editor: "),
      "seed \(seed): exit \(ended.status) after \(sent) events, standard error: \(ended.error)")
  }

  @Test(arguments: [("C-c", 130, "SIGINT", "Interrupt"), ("C-\\", 131, "SIGQUIT", "Quit")])
  func signalsEndTheEditorWithAMessage(
    key: String, status expected: Int, name: String, description: String
  ) throws {
    let editor = try EditorProcess()
    let (session, status, error) = try start(editor)
    try session.send(key)
    pollBlocking { exit(status: status, error: error) != nil }
    let ended = try #require(exit(status: status, error: error))
    #expect(ended.status == expected)
    #expect(ended.error == "settings-editor: ended by \(name) (\(description))\n")
  }
}

import Foundation
import TestSupport
import Testing

/// The walk-through of the editor's manual (`Screens/SettingsEditor.docc/UsingTheEditor.md`) on
/// the built program at 80×24 under tmux: search, edit an enum and a Codable value, reset, undo, a
/// write from another shell, `--readonly`, NO_COLOR.
extension TerminalEditorTests {
  @Test func searchEditResetUndoAndAnotherShellsWrite() throws {
    let session = try TmuxSession(command: editor.shellCommand([]))
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }

    // / finds a description ("bytes" is only in token's) in another object.
    try session.send("/")
    try session.type("first bytes")
    try session.send("Escape", "/")
    try session.type("colour theme")
    try session.send("Enter")
    // tmux may capture a frame half drawn: wait for the header and the status line together.
    var screen = try session.waitForScreen {
      $0.first?.contains("AppearanceSettings") == true && $0[22].lowercased().contains("match")
    }
    #expect(screen[22].lowercased().contains("match"))
    try session.send("n")
    screen = try session.waitForScreen {
      $0.first?.contains("EveryTypeSettings") == true && $0[22].hasPrefix(" Match 2 of")
    }
    #expect(screen[22].hasPrefix(" Match 2 of"))

    // → cycles the enum and writes it; d removes it again; u brings it back.
    try session.send("Right")
    screen = try session.waitForScreen { self.row("theme", in: $0)?.hasSuffix("light") == true }
    #expect(row("theme", in: screen)?.contains("* theme") == true)
    #expect(try editor.read(["com.example.types", "theme"], until: "light\n") == "light\n")
    try session.send("d")
    try session.waitForScreen { self.row("theme", in: $0)?.hasSuffix("system") == true }
    // The screen shows the default before the editor's write reaches the file: wait for it.
    #expect(
      try pollBlocking { try editor.run("read", "com.example.types", "theme").status != 0 },
      "removed")
    try session.send("u")
    try session.waitForScreen { self.row("theme", in: $0)?.hasSuffix("light") == true }

    // A Codable value as JSON: broken JSON is refused, the draft stays, nothing is written.
    try session.send("Down", "Down", "Enter", "Home")
    try session.type("[")
    try session.send("Enter")
    screen = try session.waitForScreen { $0.contains { $0.contains("not changed") } }
    #expect(screen[20].hasPrefix(" windowFrame (WindowFrame) not changed: not valid JSON"))
    #expect(screen[22].hasPrefix(" windowFrame (WindowFrame as JSON): [{"))
    try session.send("Escape")
    // The field is closed on screen before another shell writes: a change drawn in the same
    // frame as a key that lays the screen out again is not marked.
    try session.waitForScreen { $0[22].hasPrefix(" windowFrame") && !$0[22].contains("as JSON") }
    #expect(try editor.run("read", "com.example.types", "windowFrame").status != 0)

    // Another shell writes a key: its row is marked and updated; the cursor stays.
    #expect(try editor.run("write", "com.example.types", "volume", "-int", "7").status == 0)
    // The value and its mark may reach the screen in two frames: wait for the row with both.
    screen = try session.waitForScreen {
      guard let row = self.row("volume", in: $0) else { return false }
      return row.hasSuffix("7") && row.contains("~ volume")
    }
    #expect(row("volume", in: screen)?.contains("~ volume") == true)
    #expect(screen[22].hasPrefix(" windowFrame"), "the focus stayed on windowFrame")
  }

  @Test func readonlyRefusesAndNoColorStillShowsEveryCue() throws {
    let command = "env NO_COLOR=1 " + editor.shellCommand(["--readonly"])
    let session = try TmuxSession(command: command)
    var screen = try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    #expect(screen[0].hasSuffix("[object, RO]"))
    try session.send("Down", "Enter")
    screen = try session.waitForScreen { $0.contains { $0.contains("--readonly") } }
    #expect(screen[22].contains("age is not changed: the editor runs with --readonly"))
    let attributes = try session.screenWithAttributes().joined()
    #expect(attributes.firstMatch(of: /\[3[0-7]m/) == nil, "no foreground colour with NO_COLOR")
    #expect(attributes.contains("[7m"), "reverse video still marks the header and focus")
  }
}

extension TerminalEditorTests {
  @Test func withoutAUTF8LocaleEveryGlyphIsASCII() throws {
    let session = try TmuxSession(command: "env LC_ALL=C " + editor.shellCommand([]))
    // tmux may capture a frame half drawn: wait for the rows and the key bar.
    let screen = try session.waitForScreen {
      $0.contains { $0.contains("nickname") } && $0[23].hasPrefix(" ^v move")
    }
    #expect(screen[2].hasPrefix("> Settings          |  name"))
    #expect(screen[23].hasPrefix(" ^v move  Tab pane"))
    #expect(screen.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
  }

  @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
  func aTerminationSignalRestoresTheTerminalAndEndsWithThatSignal(_ signal: Int32) throws {
    let pidFile = editor.preferences.appendingPathComponent("editor-\(signal).pid")
    // The inner shell writes its PID and becomes the editor (exec), in the foreground.
    let inner = "echo $$ > '\(pidFile.path)'; exec \(editor.shellCommand([]))"
    let outer = "sh -c \(Self.quoted(inner)); echo exit status $?; stty -a; sleep 30"
    let session = try TmuxSession(command: "sh -c \(Self.quoted(outer))")
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    let text = try String(contentsOf: pidFile, encoding: .utf8)
    let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    kill(pid, signal)
    let screen = try session.waitForScreen { $0.contains { $0.contains("icanon") } }
    #expect(screen.contains("exit status \(128 + signal)"), "ended by the signal itself")
    let modes = screen.joined(separator: " ")
    #expect(modes.contains(" icanon") && modes.contains(" echo "), "cooked mode with echo again")
  }

  /// `text` in single quotes for sh.
  private static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

import Foundation
import TestSupport
import Testing

/// Text that used to corrupt the screen, on the built program under tmux.
extension TerminalEditorTests {
  /// Bug 1: an emoji joined with U+200D took more cells than the editor counted; curses wrapped
  /// the rest of its row over the objects pane of the next line.
  @Test func aJoinedEmojiKeepsEveryLineInPlace() throws {
    let family = "👨\u{200D}👩\u{200D}👧\u{200D}👦"
    #expect(try editor.run("write", "org.me.raw", "emoji", "-string", family).status == 0)
    #expect(try editor.run("write", "org.me.raw", "later", "-string", "x").status == 0)
    let session = try TmuxSession(command: editor.shellCommand([]))
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("Tab", "End", "Tab")
    let screen = try session.waitForScreen {
      $0.first?.contains("org.me.raw") == true && $0.contains { $0.contains("│  later") }
    }
    let emoji = try #require(screen.firstIndex { $0.contains("emoji") })
    #expect(
      screen[emoji].contains("👨\\u{200d}👩\\u{200d}👧\\u{200d}👦"),
      "the emoji it joins, with the zero-width joiners visible")
    #expect(screen[emoji + 1].hasPrefix("  AppearanceSettings"), "the next label is intact")
    #expect(screen[emoji + 1].contains("│  later"))
  }

  /// Bug 2: with the redraw counters on at 80 columns the cloud object's rows were wider than the
  /// pane: the header wrapped, `▸ Settings` became `wsSettings` and the Value column went.
  @Test func redrawCountersOnTheCloudObjectFitTheScreen() throws {
    let session = try TmuxSession(command: editor.shellCommand([]))
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("Tab", "Down", "Down", "Down", "c")
    // tmux may capture a frame half drawn: wait for the header, the columns and the list.
    let screen = try session.waitForScreen {
      $0.first?.contains("CloudSettings") == true && $0[1].contains("Redraws")
        && $0[1].contains("Value") && $0[5].hasPrefix("▸ CloudSettings")
    }
    #expect(screen[1].contains("Value"))
    #expect(screen[2].hasPrefix("  Settings "))
    #expect(screen[3].hasPrefix("  AppearanceSettings"))
    #expect(screen[5].hasPrefix("▸ CloudSettings"))
    #expect(screen.prefix(22).allSatisfy { $0.count <= 80 })
  }

  /// Bug 3: outside a UTF-8 locale non-ASCII text was drawn as nothing, in rows and in the field.
  @Test func withoutAUTF8LocaleNonASCIITextIsEscaped() throws {
    #expect(try editor.run("write", "org.me.raw", "list", "-array", "a", "b,c", "ü").status == 0)
    #expect(try editor.run("write", "org.me.raw", "word", "-string", "Grüße").status == 0)
    let session = try TmuxSession(command: "env LC_ALL=C " + editor.shellCommand([]))
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("Tab", "End", "Tab")
    var screen = try session.waitForScreen {
      $0.first?.contains("org.me.raw") == true && $0.contains { $0.contains("|  list >") }
    }
    #expect(screen.contains { $0.contains("|  list >") }, "the tree's triangle in ASCII too")
    try session.send("Enter")
    // tmux may capture a frame half drawn: wait for the opened list and the row below it.
    screen = try session.waitForScreen { lines in
      lines.contains { $0.contains("|  list v") }
        && lines.contains { $0.contains(#"Gr\u{fc}\u{df}e"#) }
        && lines.contains { $0.contains(#"  String  \u{fc}"#) }
    }
    #expect(screen.contains { $0.contains(#"  String  \u{fc}"#) })
    #expect(screen.contains { $0.contains(#"Gr\u{fc}\u{df}e"#) })
    try session.send("End", "Enter")
    screen = try session.waitForScreen {
      $0[22].contains("word (String") && $0[22].contains(#"Gr\u{fc}\u{df}e"#)
    }
    #expect(screen[22].contains(#"Gr\u{fc}\u{df}e"#), "the field shows the text escaped")
    #expect(screen.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
  }
}

extension TerminalEditorTests {
  /// Bug 12: a suite created while the editor ran was not listed until a restart.
  @Test func aSuiteCreatedWhileTheEditorRunsIsListed() throws {
    let session = try TmuxSession(command: editor.shellCommand([]))
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    #expect(try editor.run("write", "org.me.later", "greeting", "hi").status == 0)
    let screen = try session.waitForScreen { $0.contains { $0.hasPrefix("  org.me.later") } }
    #expect(screen[6].hasPrefix("  org.me.later"), "after the objects, among the suites")
    try session.send("Tab", "End", "Tab")
    // tmux may capture a frame half drawn: wait for the header and the row together.
    func showsRow(_ lines: [String]) -> Bool {
      lines.contains { $0.contains("│  greeting") && $0.hasSuffix("hi") }
    }
    let shown = try session.waitForScreen {
      $0.first?.contains("org.me.later") == true && showsRow($0)
    }
    #expect(showsRow(shown))
  }
}

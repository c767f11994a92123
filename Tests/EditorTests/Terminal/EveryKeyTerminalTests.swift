import Foundation
import TestSupport
import Testing

/// Every key of a suite, and a screen that keeps up, in the built program under tmux: keys no
/// schema lists in an "other keys" group, a schema's URL as a plain URL, a key typed in the same
/// burst as the Enter that opens a dictionary, the list anchored again when the terminal grows,
/// the header's badges and the key bar whole at 80 columns.
extension TerminalEditorTests {
  @Test func keysNoSchemaListsAreAnOtherKeysGroupThatEditsAndRemovesThem() throws {
    #expect(try editor.runSchemaProbe("print").status == 0)
    let suite = "com.example.schema-probe"
    #expect(try editor.run("write", suite, "nmae", "Typo").status == 0)
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 100, rows: 24)
    try session.waitForScreen { $0.contains { $0.contains("ProbeAppSettings · other keys") } }
    // The objects pane: the demo's four objects, the probe's class, then its other keys.
    try session.send("Tab", "j", "j", "j", "j", "j")
    var screen = try session.waitForScreen { self.row("nmae", in: $0) != nil }
    #expect(row("nmae", in: screen)?.hasSuffix("  nmae  String  Typo") == true)
    #expect(row("displayName", in: screen) == nil, "the schema's keys stay in its rows")
    // Editable: Enter, a new value, Enter.
    try session.send("Tab", "Enter", "C-u")
    try session.type("Fixed")
    try session.send("Enter")
    #expect(try editor.read([suite, "nmae"], until: "Fixed\n") == "Fixed\n")
    // Removable: d.
    try session.send("d")
    #expect(try pollBlocking { try editor.run("read", suite, "nmae").status == 1 })
    screen = try session.waitForScreen { self.row("nmae", in: $0) == nil }
    #expect(screen.contains { $0.contains("(no keys)") })
  }

  @Test func aSchemasURLRowShowsAndTakesAPlainURL() throws {
    #expect(try editor.runSchemaProbe("print").status == 0)
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 100, rows: 24)
    try session.waitForScreen { $0.contains { $0.contains("ProbeAppSettings") } }
    try session.send("Tab", "j", "j", "j", "j")
    var screen = try session.waitForScreen { self.row("homePage", in: $0) != nil }
    #expect(row("homePage", in: screen)?.hasSuffix("  homePage  URL  https://example.com") == true)
    try session.send("Tab", "G")
    for _ in 0..<3 { try session.send("k") }  // tabWidth, density, recentFiles, homePage
    try session.send("Enter")
    screen = try session.waitForScreen { $0[22].hasPrefix(" homePage (URL") }
    #expect(screen[22].hasSuffix("https://example.com"), "the line editor holds the plain URL")
    try session.send("C-u")
    try session.type("https://swift.org/a?b=1")
    try session.send("Enter")
    screen = try session.waitForScreen {
      self.row("homePage", in: $0)?.hasSuffix("https://swift.org/a?b=1") == true
    }
    #expect(row("homePage", in: screen)?.contains("* homePage") == true)
    #expect(
      try pollBlocking {
        try editor.runSchemaProbe("print").output.contains("homePage=https://swift.org/a?b=1")
      })
  }

  @Test func aKeyTypedInTheBurstOfTheEnterThatOpensADictionaryIsKept() throws {
    let file = editor.preferences.appendingPathComponent("tree.plist").path
    #expect(try editor.run("write", file, "a", "-dict", "x", "1", "y", "2").status == 0)
    #expect(try editor.run("write", file, "b", "3").status == 0)
    let session = try TmuxSession(command: editor.shellCommand([file]))
    try session.waitForScreen { $0.contains { $0.contains("a ▸") } }
    // One write to the terminal: Enter opens a, j moves to its first child.
    try session.type("\rj")
    let screen = try session.waitForScreen { $0[22].hasPrefix(" x ") }
    #expect(screen[22].hasPrefix(" x "), "the focus is on a's first child: \(screen[22])")
    #expect(screen.contains { $0.contains("a ▾") })
  }

  @Test func theListIsAnchoredAgainWhenTheTerminalGrows() throws {
    let file = editor.preferences.appendingPathComponent("long.plist").path
    let words = (0..<30).flatMap { ["k\(String($0 + 100).dropFirst())", "v"] }
    #expect(try editor.run(["write", file, "all", "-dict"] + words).status == 0)
    for index in 0..<30 {
      #expect(try editor.run("write", file, "k\(String(index + 100).dropFirst())", "v").status == 0)
    }
    let session = try TmuxSession(command: editor.shellCommand([file]), columns: 80, rows: 12)
    try session.waitForScreen { $0.contains { $0.contains("k00") } }
    try session.send("G")  // the last key: the list scrolls
    var screen = try session.waitForScreen { $0.contains { $0.contains("k29") } }
    #expect(!screen.contains { $0.contains("│  k00 ") })
    try session.resize(columns: 80, rows: 40)
    screen = try session.waitForScreen { $0.count >= 40 && $0[39].hasPrefix(" ↑↓ move") }
    // 31 keys in 35 lines: all of them, from the top, and no empty line above the last.
    #expect(screen.contains { $0.contains("│  all ▸") }, "the list starts at its first key again")
    #expect(screen[3].contains("│  all ▸"), "\(screen[3])")
    #expect(screen[33].contains("│  k29 "), "\(screen[33])")
  }

  @Test func theStateBadgeAndTheKeyBarAreWholeAt80Columns() throws {
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 80, rows: 24)
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    // The demo's cloud object: its state badge is the longest.
    try session.send("Tab", "j", "j", "j")
    let screen = try session.waitForScreen { $0[0].contains("[cloud,") }
    #expect(screen[0].hasSuffix(", LIVE]"), "\(screen[0])")
    #expect(screen[23].hasSuffix("q quit"), "\(screen[23])")
  }
}

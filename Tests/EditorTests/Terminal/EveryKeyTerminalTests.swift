import Foundation
import TestSupport
import Testing

/// Every key of a suite, and a screen that keeps up, in the built program under tmux: keys no
/// schema lists in an "other keys" group, a schema's URL as a plain URL, a key typed in the same
/// burst as the Enter that opens a dictionary, the list anchored again when the terminal grows,
/// the header's badges and the key bar whole at 80 columns.
extension TerminalEditorTests {
  @Test func keysNoSchemaListsAreAnOtherKeysGroupThatEditsAndRemovesThem() throws {
    let suite = "com.example.schema-probe"
    #expect(try editor.run("write", suite, "nmae", "Typo").status == 0)
    // The probe's class, then its other keys.
    let session = try editorOnProbeSettings(offset: 2, showing: "nmae")
    var screen = try session.screen()
    #expect(screen[0].hasPrefix(" settings-editor  ProbeAppSettings · other keys  "))
    #expect(screen[0].hasSuffix("[suite, LIVE]"))
    #expect(row("nmae", in: screen)?.hasSuffix("  nmae  String  Typo") == true)
    #expect(row("displayName", in: screen) == nil, "the schema's keys stay in its rows")
    // Editable: Enter, a new value, Enter.
    try session.send("Tab", "Enter", "C-u")
    try session.type("Fixed")
    try session.send("Enter")
    #expect(try editor.read([suite, "nmae"], until: "Fixed\n") == "Fixed\n")
    // Removable: d. The group held that key only: it leaves the list, and its schema's class
    // is shown in its place.
    try session.send("d")
    #expect(try pollBlocking { try editor.run("read", suite, "nmae").status == 1 })
    screen = try session.waitForScreen { $0[0].hasPrefix(" settings-editor  ProbeAppSettings  ") }
    #expect(!listsOtherKeys(screen), "\(screen)")
    #expect(!screen.contains { $0.contains("(no keys)") }, "\(screen)")
    #expect(row("displayName", in: screen) != nil)
    #expect(screen.contains { $0.hasPrefix(" ProbeAppSettings · other keys holds no keys now") })
    // u puts the key back, and the group with it, shown.
    try session.send("u")
    screen = try session.waitForScreen { self.row("nmae", in: $0) != nil }
    #expect(screen[0].hasPrefix(" settings-editor  ProbeAppSettings · other keys  "))
    #expect(row("nmae", in: screen)?.hasSuffix("  nmae  String  Fixed") == true)
    #expect(try editor.read([suite, "nmae"], until: "Fixed\n") == "Fixed\n")
  }

  @Test func keysWrittenLaterJoinTheOtherKeysGroupLiveAndLeaveItWhenDeleted() throws {
    let suite = "com.example.schema-probe"
    // No other keys yet: the probe's class is not followed by a group.
    let session = try editorOnProbeSettings(showing: "displayName")
    var screen = try session.screen()
    #expect(!screen.contains { $0.contains("other keys") }, "\(screen)")
    #expect(try editor.run("write", suite, "nmae", "Typo").status == 0)
    screen = try session.waitForScreen { $0.contains { $0.contains("New: ProbeAppSettings") } }
    #expect(screen[0].contains(" ProbeAppSettings  schema-probe"), "the focus stays")
    // The group is listed right after the class.
    try session.send("j")
    screen = try session.waitForScreen { self.row("nmae", in: $0) != nil }
    #expect(screen[0].hasPrefix(" settings-editor  ProbeAppSettings · other keys  "))
    #expect(row("nmae", in: screen)?.hasSuffix("  nmae  String  Typo") == true)
    // Another key written later appears; one deleted goes.
    #expect(try editor.run("write", suite, "later", "-int", "7").status == 0)
    screen = try session.waitForScreen { self.row("later", in: $0) != nil }
    #expect(row("later", in: screen)?.hasSuffix(" 7") == true)
    #expect(try editor.run("delete", suite, "nmae").status == 0)
    screen = try session.waitForScreen { self.row("nmae", in: $0) == nil }
    #expect(row("later", in: screen) != nil)
    #expect(row("displayName", in: screen) == nil, "the schema's keys stay in its rows")
    // Its last key deleted, the group leaves the list; the class is shown in its place.
    #expect(try editor.run("delete", suite, "later").status == 0)
    screen = try session.waitForScreen { !self.listsOtherKeys($0) }
    #expect(screen[0].hasPrefix(" settings-editor  ProbeAppSettings  "), "\(screen)")
    #expect(!screen.contains { $0.contains("(no keys)") }, "\(screen)")
    #expect(row("displayName", in: screen) != nil)
    // A key written again brings it back.
    #expect(try editor.run("write", suite, "again", "-bool", "true").status == 0)
    screen = try session.waitForScreen { $0.contains { $0.contains("New: ProbeAppSettings") } }
    try session.send("j")
    screen = try session.waitForScreen { self.row("again", in: $0) != nil }
    #expect(screen[0].hasPrefix(" settings-editor  ProbeAppSettings · other keys  "))
  }

  /// Whether the objects pane of `screen` lists the probe's "other keys" group.
  func listsOtherKeys(_ screen: [String]) -> Bool {
    screen.contains { $0.hasPrefix("  ProbeAppSettings ·") || $0.hasPrefix("▸ ProbeAppSettings ·") }
  }

  @Test func aSchemasURLRowShowsAndTakesAPlainURL() throws {
    let session = try editorOnProbeSettings(showing: "homePage")
    var screen = try session.screen()
    #expect(
      row("homePage", in: screen)?.hasSuffix("  homePage      URL       https://example.com")
        == true)
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
    let screen = try session.waitForScreen { $0.contains { $0.contains("│    x ") } }
    // The context line names the focused row: a's first child, not a.
    #expect(screen[22] == "   x", "\(screen[22])")
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
    #expect(screen[2].contains("│  all ▸"), "the list starts at its first key again: \(screen[2])")
    #expect(screen[32].contains("│  k29 "), "\(screen[32])")
    #expect(screen[33] == "              │", "empty lines below the list, none above")
  }

  @Test func theBadgeAndTheKeyBarAreWholeAt80Columns() throws {
    let file = editor.preferences.appendingPathComponent(
      "a-file-whose-path-is-long-enough-to-be-shortened/preferences.plist")
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    #expect(try editor.run("write", file.path, "volume", "-int", "7").status == 0)
    let session = try TmuxSession(
      command: editor.shellCommand([file.path]), columns: 80, rows: 24)
    let screen = try session.waitForScreen { $0.count > 23 && $0[23].hasPrefix(" ↑↓ move") }
    // A file's key bar is the longest (it offers r reload, 83 columns): the hint before the
    // last two goes.
    #expect(
      screen[23] == " ↑↓ move  Tab pane  Enter edit  d default  u undo  / find  ? help  q quit",
      "\(screen[23])")
    #expect(screen[0].hasSuffix(" [file, LIVE]"), "\(screen[0])")
    #expect(screen[0].contains("…"), "the path is shortened: \(screen[0])")
  }
}

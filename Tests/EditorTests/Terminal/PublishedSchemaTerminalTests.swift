import Foundation
import TestSupport
import Testing

/// Issue 22 end to end: a separate program (`schema-probe`) publishes its schemas and exits; the
/// editor under tmux shows its classes with typed rows, defaults and descriptions, cycles an
/// enumeration by its cases, refuses an out-of-range integer, resets a key; the program started
/// again sees each edit; a cloud value edited in the editor reaches a running device of it.
extension TerminalEditorTests {
  /// Runs `schema-probe` (which publishes its schemas), then the editor at 100×24 with the
  /// objects pane on the `offset`th source after the demo's four objects (1: the probe's
  /// class); returns the session once `row` is on the screen.
  func editorOnProbeSettings(offset: Int = 1, showing row: String) throws -> TmuxSession {
    #expect(try editor.runSchemaProbe("print").status == 0)
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 100, rows: 24)
    try session.waitForScreen { $0.contains { $0.contains("ProbeCloudPreferences") } }
    // The objects pane: the demo's four objects, then the probe's sources.
    try session.send("Tab")
    for _ in 0..<(3 + min(offset, 1)) { try session.send("j") }
    if offset > 1 {
      // The sources after it (its "other keys") are listed once its suite is read, which may
      // come after the class's rows are shown: a `j` sent before went to the next class.
      try session.waitForScreen {
        self.row("displayName", in: $0) != nil && self.listsOtherKeys($0)
      }
      for _ in 1..<offset { try session.send("j") }
    }
    try session.waitForScreen { self.row(row, in: $0) != nil }
    return session
  }

  @Test func anotherProgramsSettingsAreEditedThroughItsSchema() throws {
    let session = try editorOnProbeSettings(showing: "scrollback")
    var screen = try session.screen()
    #expect(screen[0].contains("ProbeAppSettings  schema-probe: "))
    #expect(screen[0].hasSuffix("[object, LIVE]"))
    #expect(row("theme", in: screen)?.hasSuffix("  theme         Theme     light") == true)
    #expect(row("scrollback", in: screen)?.hasSuffix("  scrollback    Int16     1000") == true)
    #expect(row("lastFolder", in: screen)?.hasSuffix("  lastFolder    String?   nil") == true)
    // The context line: the documentation's two paragraphs and the default.
    try session.send("Tab")
    screen = try session.waitForScreen { $0[22].hasPrefix(" displayName · ") }
    #expect(screen[22].hasPrefix(" displayName · The name shown in the title bar. Shown after"))

    // → cycles the enumeration by its cases.
    try session.send("j", "Right")
    screen = try session.waitForScreen { self.row("theme", in: $0)?.hasSuffix("dark") == true }
    #expect(row("theme", in: screen)?.contains("* theme") == true)
    // An integer out of Int16's range is refused; one in range is stored.
    try session.send("j", "Enter", "C-u")
    try session.type("40000")
    try session.send("Enter")
    screen = try session.waitForScreen { $0.contains { $0.contains("not changed") } }
    #expect(
      screen[21].hasPrefix(" scrollback (Int16) not changed: out of range -32768…32767"),
      "\(screen[21])")
    try session.send("C-u")
    try session.type("-7")
    try session.send("Enter")
    try session.waitForScreen { self.row("scrollback", in: $0)?.hasSuffix("-7") == true }
    #expect(
      try pollBlocking { try editor.runSchemaProbe("print").output.contains("scrollback=-7") })
    #expect(try editor.runSchemaProbe("print").output.contains("theme=dark"))
    // d removes the key: the program reads its default again.
    try session.send("d")
    try session.waitForScreen { self.row("scrollback", in: $0)?.hasSuffix("1000") == true }
    #expect(
      try pollBlocking { try editor.runSchemaProbe("print").output.contains("scrollback=1000") })

    // A value another process stores that does not fit the schema is marked.
    let file = editor.preferences.appendingPathComponent("com.example.schema-probe.plist").path
    #expect(try editor.run("write", file, "fontSize", "large").status == 0)
    screen = try session.waitForScreen { $0.contains { $0.contains("│! fontSize ") } }
    let misfit = screen.first { $0.contains("│! fontSize ") }
    #expect(
      misfit?.hasSuffix("12.5") == true, "the default is shown: \(String(describing: misfit))")

    // The cloud class: a running device of the program sees the editor's change.
    let device = try editor.startSchemaProbe(["watch-cloud"])
    defer {
      kill(device.processIdentifier, SIGTERM)
      _ = device.finish()
    }
    #expect(pollBlocking { device.outputSoFar.contains("cloud theme=dark") })
    try session.send("Tab", "j", "Tab")
    screen = try session.waitForScreen { $0[0].contains("ProbeCloudPreferences") }
    #expect(screen[0].hasSuffix("[cloud, synced, LIVE]"))
    // The suite the schema describes is not listed again as raw keys, now that it exists.
    #expect(!screen.contains { $0.contains("com.example.schema-probe  ") }, "\(screen)")
    try session.send("Right")
    try session.waitForScreen { self.row("theme", in: $0)?.hasSuffix("sepia") == true }
    #expect(
      pollBlocking(within: .seconds(30)) {
        device.outputSoFar.contains("cloud theme=sepia")
      }, "\(device.outputSoFar)")
    try session.send("q")
  }

  @Test func anUnusableSchemaIsNamedAndTheEditorsOwnAreLeftOut() throws {
    let folder = editor.publishedSchemas
    let bad = folder.appendingPathComponent("bad/Bad.Settings@bad.plist")
    let own = folder.appendingPathComponent("settings-editor/Own.Settings@own.plist")
    for file in [bad, own] {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    }
    try Data("<plist><dict>".utf8).write(to: bad)
    // A second unusable file: the status line names the first and counts the others.
    let worse = folder.appendingPathComponent("bad/Bad.Worse@bad.plist")
    try Data("<plist><array>".utf8).write(to: worse)
    let root: [String: Any] = [
      "format": 1, "program": ["name": "settings-editor"], "module": "Own", "class": "OwnSettings",
      "store": ["suite": "own"], "prefix": "", "keys": [],
    ]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: own)
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 120, rows: 24)
    let screen = try session.waitForScreen { $0.contains { $0.contains("cannot be read") } }
    // The message is broken over the status lines: compare without the breaks and spaces.
    let text = screen.joined().replacingOccurrences(of: " ", with: "")
    #expect(text.contains("\(bad.path):cannotberead:"), "\(screen)")
    #expect(text.contains("(and1moreschemaproblems:settings-editorlist-schemasnameseach)"))
    #expect(!screen.contains { $0.contains("OwnSettings") })
    try session.send("q")
  }

  /// Issue 22: a conflict between two schemas of one suite is named on the status line, and
  /// the hidden file's description of the key is not shown.
  @Test func aConflictIsNamedOnTheStatusLine() throws {
    #expect(try editor.runSchemaProbe("print").status == 0)
    let suite = "com.example.schema-probe"
    let hidden = editor.preferences.appendingPathComponent(
      "installed/ObservableDefaults/schemas/other-app/Other.Settings@\(suite).plist")
    try FileManager.default.createDirectory(
      at: hidden.deletingLastPathComponent(), withIntermediateDirectories: true)
    let keys: [[String: Any]] = ["scrollback", "wrapsLines"].map { name in
      [
        "name": name, "key": name, "type": "String", "kind": "string", "optional": false,
        "storedForm": "string", "default": "many",
      ]
    }
    let root: [String: Any] = [
      "format": 1, "program": ["name": "other-app"], "module": "Other", "class": "OtherSettings",
      "store": ["suite": suite], "prefix": "", "keys": keys,
    ]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: hidden)
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 120, rows: 24)
    var screen = try session.waitForScreen { $0.contains { $0.contains("conflict:") } }
    let text = screen.joined().replacingOccurrences(of: " ", with: "")
    #expect(
      text.contains("conflict:\(hidden.path)describesscrollbackof\(suite)otherwisethan"),
      "\(screen)")
    // The objects pane: the demo's four, the probe's two classes, then the other program's,
    // whose rows are its keys but the hidden one.
    try session.send("Tab", "j", "j", "j", "j", "j", "j")
    screen = try session.waitForScreen { $0[0].contains("OtherSettings") }
    // The panes' rows only: the status lines below them may still name the conflict, and the
    // key with it.
    let rows = screen.filter { $0.contains("│") }
    #expect(rows.contains { $0.contains("wrapsLines") })
    #expect(!rows.contains { $0.contains("scrollback") }, "\(screen)")
    try session.send("q")
  }

  /// Issue 22: the demo's suite is listed once — as its object — although another program
  /// published a schema of it (it was listed again through that schema) and its file is
  /// written again while the editor runs (it was listed again as a new raw suite).
  @Test func theDemoSuiteIsListedOnceAsItsObject() throws {
    #expect(try editor.run("write", "com.example.demo", "age", "-int", "30").status == 0)
    let copy = editor.publishedSchemas.appendingPathComponent(
      "demo-copy/Demo.Settings@com.example.demo.plist")
    try FileManager.default.createDirectory(
      at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
    let root: [String: Any] = [
      "format": 1, "program": ["name": "demo-copy"], "module": "Demo", "class": "Settings",
      "store": ["suite": "com.example.demo"], "prefix": "", "keys": [],
    ]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: copy)
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 100, rows: 24)
    try session.waitForScreen { $0.contains { $0.contains("CloudSettings") } }
    #expect(try editor.run("write", "com.example.demo", "age", "-int", "31").status == 0)
    try session.waitForScreen { self.row("age", in: $0)?.hasSuffix("31") == true }
    // r lists the suites that appeared since: none.
    try session.send("r")
    let screen = try session.waitForScreen { $0.contains { $0.contains("Reloaded Settings") } }
    #expect(screen.contains { $0.hasPrefix(" Reloaded Settings from disk") }, "\(screen)")
    // The objects pane's entries: the demo's four objects, nothing else.
    let entries = screen.dropFirst(2).filter { $0.contains("│") }
      .map { $0.split(separator: "│").first.map(String.init) ?? "" }
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    #expect(
      entries == ["▸ Settings", "AppearanceSettings", "EveryTypeSettings", "CloudSettings ☁"],
      "\(screen)")
    try session.send("q")
  }
}

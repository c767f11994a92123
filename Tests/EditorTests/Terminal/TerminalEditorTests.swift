import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// The editor as a user sees it: the built program in a tmux window, read with capture-pane.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed (CI installs it with apt-get)"))
struct TerminalEditorTests {
  let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  /// The row of the table whose name column is `name`.
  func row(_ name: String, in screen: [String]) -> String? {
    screen.first { line in
      ["  ", "* ", "~ ", "# "].contains { line.contains("│\($0)\(name) ") }
    }
  }

  @Test func aWriteFromAnotherProcessRedrawsOnlyThatRow() throws {
    let session = try TmuxSession(command: editor.shellCommand([]))
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("c")
    try session.waitForScreen { $0.contains { $0.contains("Redraws") } }

    #expect(try editor.run("write", "com.example.demo", "age", "-int", "42").status == 0)
    let screen = try session.waitForScreen {
      self.row("age", in: $0).map { $0.contains("42") && $0.hasSuffix("↻1") } == true
    }

    let age = try #require(row("age", in: screen))
    #expect(age.contains("~ age"), "marked as changed elsewhere, for a moment")
    let marked = try session.waitForScreen { self.row("age", in: $0)?.contains("* age") == true }
    #expect(
      row("age", in: marked)?.hasSuffix("↻1") == true, "the mark ran out: no new redraw count")
    #expect(age.contains("Int"))
    #expect(age.hasSuffix("↻1"))
    #expect(row("name", in: screen)?.hasSuffix("↻0") == true)
    #expect(row("nickname", in: screen)?.hasSuffix("↻0") == true)
  }

  @Test func opensEveryFixtureAndShowsItsTopLevelKeys() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: TestPreferences.fixtures.path)
      .filter { $0.hasSuffix(".plist") }.sorted()
    #expect(names.count == 6)
    let paths = names.map { TestPreferences.fixtures.appendingPathComponent($0).path }
    let session = try TmuxSession(command: editor.shellCommand(paths), columns: 100, rows: 30)
    try session.waitForScreen { $0.first?.contains(names[0]) == true }
    try session.send("Tab")
    for (index, name) in names.enumerated() {
      if index > 0 { try session.send("Down") }
      let keys = try #require(
        try PropertyListFile(url: TestPreferences.fixtures.appendingPathComponent(name)).read()
      )
      .values.keys.map(\.string).sorted()
      // 26 rows fit in 30 lines; End in the rows pane scrolls to the last ones.
      let firstPage = try showsRows(keys.prefix(26), of: name, in: session)
      #expect(firstPage.first?.contains("[file, LIVE]") == true, "\(name)")
      if keys.isEmpty {
        #expect(firstPage.contains { $0.contains("(no keys)") }, "\(name)")
      }
      if keys.count > 26 {
        try session.send("Tab", "End")
        _ = try showsRows(keys.suffix(26), of: name, in: session)
        try session.send("Tab")
      }
    }
  }

  /// Waits until the screen shows `name`'s rows for `keys` and expects them all; returns it.
  private func showsRows(_ keys: ArraySlice<String>, of name: String, in session: TmuxSession)
    throws -> [String]
  {
    // Long names are cut to the name column; their start identifies them.
    let rows = keys.map { "│  \($0.prefix(15))" }
    let shown = { (screen: [String]) in rows.filter { row in screen.contains { $0.contains(row) } }
    }
    let screen = try session.waitForScreen {
      $0.first?.contains(name) == true && shown($0).count == rows.count
    }
    #expect(shown(screen) == rows, "\(name)")
    return screen
  }

  /// Issue 42: an editor with nothing to do blocks without a timeout, on every thread: none of
  /// its threads switches more than once in 4 s idle, after the first paint and again after
  /// another process's change was shown and its mark ran out (a file shown used to make the
  /// loop wake every second to look at it). One switch is allowed: the thread that drew the
  /// frame the screen was read from may block in `poll` only after it was read.
  @Test func theIdleEditorDoesNotWake() throws {
    // In a folder of its own: the editor watches the file's folder, which other tests write to.
    let folder = try TemporaryFolder(prefix: "idle-editor")
    defer { folder.remove() }
    let file = folder.file("idle.plist")
    try PropertyListSerialization.data(fromPropertyList: ["age": 20], format: .xml, options: 0)
      .write(to: file)
    let session = try TmuxSession(command: editor.shellCommand([file.path]))
    try session.waitForScreen { self.row("age", in: $0) != nil }
    let process = try #require(try session.processID())
    var woke = try wakeUpsWhileIdle(process)
    #expect(woke.isEmpty, "\(woke)")

    #expect(try editor.run("write", file.path, "age", "-int", "21").status == 0)
    // The value shows marked as changed elsewhere at once; the mark runs out after 2 s.
    try session.waitForScreen {
      self.row("age", in: $0).map { !$0.contains("~ age") && $0.contains("21") } == true
    }
    woke = try wakeUpsWhileIdle(process)
    #expect(woke.isEmpty, "\(woke)")
  }

  /// The threads of `process` that switched more than once (or started) within 4 s, with their
  /// switches, each as `thread: switches`.
  private func wakeUpsWhileIdle(_ process: Int32) throws -> [String] {
    let before = try Self.voluntarySwitches(of: process)
    #expect(!before.isEmpty)
    var woke: [String] = []
    _ = try pollBlocking(within: .seconds(4)) {
      let now = try Self.voluntarySwitches(of: process)
      woke = now.compactMap { thread, switches in
        let switched = switches - (before[thread] ?? 0)
        return before[thread] == nil || switched > 1 ? "\(thread): \(switched)" : nil
      }
      return !woke.isEmpty
    }
    return woke
  }

  /// The voluntary context switches of each thread of `process` so far, by thread id.
  private static func voluntarySwitches(of process: Int32) throws -> [Int: Int] {
    let tasks = "/proc/\(process)/task"
    var switches: [Int: Int] = [:]
    for thread in try FileManager.default.contentsOfDirectory(atPath: tasks) {
      guard let id = Int(thread),
        let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8)
      else { continue }  // a thread that ended meanwhile
      let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
      switches[id] = Int(line?.split(separator: "\t").last ?? "") ?? -1
    }
    return switches
  }

  @Test func lettersInAnIntAreRefusedAndTheStoredValueStays() throws {
    let session = try TmuxSession(command: editor.shellCommand([]))
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("Down", "Enter")
    try session.type("x")
    try session.send("Enter")
    let screen = try session.waitForScreen { $0.contains { $0.contains("not changed") } }
    #expect(
      screen.contains {
        $0.contains("age (Int) not changed: not a whole number (Int expected): \"20x\"")
      })
    try session.send("Escape")
    try session.waitForScreen { !$0.contains { $0.contains("not changed") } }
    #expect(try editor.run("read", "com.example.demo", "age").status == 1, "nothing was written")

    try session.send("Enter", "BSpace", "BSpace")
    try session.type("33")
    try session.send("Enter")
    try session.waitForScreen { self.row("age", in: $0)?.contains("33") == true }
    #expect(try editor.read(["com.example.demo", "age"], until: "33\n") == "33\n")
  }

  @Test func spaceTogglesABoolAndQQuitsRestoringTheTerminal() throws {
    let command =
      "sh -c '\(editor.shellCommand([]).replacingOccurrences(of: "'", with: "'\\''")); echo exit status $?; stty -a; sleep 30'"
    let session = try TmuxSession(command: command)
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("Tab", "Down", "Tab", "Down", "Down", "Space")
    try session.waitForScreen { self.row("showsToolbar", in: $0)?.contains("false") == true }
    #expect(try editor.read(["com.example.appearance", "showsToolbar"], until: "0\n") == "0\n")
    try session.send("q")
    let screen = try session.waitForScreen { $0.contains { $0.contains("icanon") } }
    #expect(screen.contains("exit status 0"))
    let modes = screen.joined(separator: " ")
    #expect(modes.contains(" icanon") && modes.contains(" echo "), "cooked mode with echo again")
  }

  @Test func resizeRelaysOutTheScreen() throws {
    let session = try TmuxSession(command: editor.shellCommand([]))
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.resize(columns: 60, rows: 12)
    var screen = try session.waitForScreen { $0.count >= 12 && $0[11].hasPrefix(" ↑↓ move") }
    #expect(screen[11].hasPrefix(" ↑↓ move"))
    try session.resize(columns: 30, rows: 6)
    screen = try session.waitForScreen { $0.first?.hasPrefix("Terminal too small") == true }
    #expect(screen.first == "Terminal too small: need 40x8")
  }
}

import Foundation
import TestSupport
import Testing

/// Who made each change, the change log and what a change did downstream, as a user sees them:
/// the built editor in a tmux window, changed by other programs, by hand and by its own keys.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed (CI installs it with apt-get)"))
struct ChangeOriginTerminalTests {
  let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  /// The editor on the demo objects, with the focus on `age` of the first one.
  private func editorOnAge() throws -> TmuxSession {
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 120, rows: 24)
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("Down")
    try session.waitForScreen { $0[22].hasPrefix(" age") }
    return session
  }

  /// Writes `age` with `settings-editor write` from another process; returns its process id.
  private func writeAge(_ value: Int) throws -> Int32 {
    let writer = try editor.start(["write", "com.example.demo", "age", "-int", "\(value)"])
    #expect(writer.finish().status == 0)
    return writer.processIdentifier
  }

  /// Replaces the demo suite's file as a text editor or a script would: a new file, no mark.
  private func handEdit(age: Int) throws {
    let url = editor.preferences.appendingPathComponent("com.example.demo.plist")
    var values = try #require(
      try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        as? [String: Any])
    values["age"] = age
    try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
      .write(to: url, options: .atomic)
  }

  /// Waits for the context line (the focused row's) to contain `text`; returns it.
  @discardableResult
  private func context(_ session: TmuxSession, contains text: String) throws -> String {
    let screen = try session.waitForScreen { $0[22].contains(text) }
    #expect(screen[22].contains(text), "\(screen[22])")
    return screen[22]
  }

  @Test func theContextLineSaysWhoMadeTheLastChange() throws {
    let session = try editorOnAge()
    let program = try writeAge(42)
    try context(session, contains: "age · changed ")
    try context(session, contains: " by settings-editor (pid \(program)) · ")
    try handEdit(age: 43)
    try context(session, contains: " by hand edit or other program · ")
    try session.send("Enter")
    try session.send("C-u")
    try session.type("44")
    try session.send("Enter")
    try #require(try editor.read(["com.example.demo", "age"], until: "44\n") == "44\n")
    try session.send("Down", "Up")
    try context(session, contains: " by this editor · ")
    try session.send("d")
    try session.send("Down", "Up")
    try context(session, contains: " by this editor (reset) · ")
    // The suite's history has each change: the writers' own (the command's, the editor's)
    // and the hand edit the editor saw.
    let expected = """
      TIME  com.example.demo  age: (none) → 42  (settings-editor (pid N))
      TIME  com.example.demo  age: 42 → 43  (hand edit or other program)
      TIME  com.example.demo  age: 43 → 44  (settings-editor (pid N))
      TIME  com.example.demo  age: 44 → (none)  (settings-editor (pid N))

      """
    // The editor's writes reach the history once they reach the file, a moment after the screen.
    var log = ""
    #expect(
      try pollBlocking {
        log = try editor.run("log", "com.example.demo", "age").output
        return normalizedChangeLines(log) == expected
      }, "\(log)")
    #expect(
      log.split(separator: "\n").first?.hasSuffix("(settings-editor (pid \(program)))") == true)
  }

  @Test func aChangeTheProgramMakesItselfIsThisProgram() throws {
    // schema-probe shows its own settings in the editor and stores each number written to the
    // pipe in `scrollback` itself.
    let pipe = editor.preferences.appendingPathComponent("probe.pipe")
    #expect(mkfifo(pipe.path, 0o600) == 0)
    let probe = try ChildProcess.builtProgram("schema-probe")
    let session = try TmuxSession(
      command: editor.shellCommand(["editor", pipe.path], program: probe), columns: 120, rows: 24)
    try session.waitForScreen { $0.contains { $0.contains("tabWidth") } }
    try session.send("Down", "Down")
    try session.waitForScreen { $0[22].hasPrefix(" scrollback") }
    // The probe holds the pipe open for reading once it runs.
    var descriptor: Int32 = -1
    #expect(
      pollBlocking {
        descriptor = open(pipe.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        return descriptor >= 0
      })
    defer { close(descriptor) }
    #expect(write(descriptor, "2000\n", 5) == 5)
    try session.waitForScreen { $0.contains { $0.contains("2000") } }
    try context(session, contains: "scrollback · changed ")
    try context(session, contains: " by this program · ")
    // The editor's own key is told apart.
    try session.send("Enter", "C-u")
    try session.type("3000")
    try session.send("Enter")
    try session.send("Down", "Up")
    try context(session, contains: " by this editor · ")
    try session.send("q")
  }

  /// The editor on the demo's cloud object, with the focus on its `displayName`.
  private func editorOnCloudName() throws -> TmuxSession {
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 120, rows: 24)
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("Tab", "j", "j", "j", "Tab")
    try session.waitForScreen {
      $0[0].contains("CloudSettings") && $0[22].hasPrefix(" displayName")
    }
    return session
  }

  @Test func aChangeFromAnotherDeviceNamesTheDevice() throws {
    // Two editors share the demo's embedded cloud container, as two devices of a user would.
    let watching = try editorOnCloudName()
    let device = try editorOnCloudName()
    try device.send("Enter", "C-u")
    try device.type("Ann")
    try device.send("Enter")
    try watching.waitForScreen { $0.contains { $0.contains("Ann") } }
    let line = try context(watching, contains: " by device ")
    #expect(
      line.range(
        of: #"^ displayName · changed [0-9]{2}:[0-9]{2}:[0-9]{2} by device [0-9]+-[0-9A-F]{8} · "#,
        options: .regularExpression) != nil, "\(line)")
  }

  @Test func aMigrationIsToldAsOne() throws {
    #expect(try editor.run("write", "com.example.account", "user_name", "Ann").status == 0)
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 120, rows: 24)
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    // The suite is listed last, after the objects.
    try session.send("Tab", "End", "Tab")
    try session.waitForScreen { $0[0].contains("com.example.account") }
    #expect(try editor.run("migrate", "com.example.account").status == 0)
    try context(session, contains: " by migration")
  }

  @Test func theChangeLogListsFiltersJumpsAndUndoes() throws {
    let session = try editorOnAge()
    let program = try writeAge(42)
    try context(session, contains: "(pid \(program))")
    #expect(try editor.run("write", "com.example.demo", "name", "Ann").status == 0)
    try session.waitForScreen { $0.contains { $0.contains("Ann") } }
    try session.send("L")
    let log = try session.waitForScreen { $0.contains { $0.contains("Change log: 2 changes") } }
    let lines = log.filter { $0.contains(" → ") && $0.contains("  by ") }
    #expect(lines.count == 2, "\(log)")
    #expect(lines.first?.contains("Settings  name: (none) → Ann  by settings-editor (pid ") == true)
    #expect(
      lines.last?.contains("Settings  age: (none) → 42  by settings-editor (pid \(program))")
        == true)
    // The status line says what the selected (newest) change did downstream.
    #expect(log[22].contains("name: 1 key changed → "), "\(log[22])")
    // f: the focused key (age) only.
    try session.send("f")
    let filtered = try session.waitForScreen { $0.contains { $0.contains("Change log: 1 change") } }
    #expect(filtered.contains { $0.contains("key age (f: all keys)") })
    #expect(!filtered.contains { $0.contains("name: Fatbobman") })
    // u: undo the selected change; the value before comes back.
    try session.send("u")
    #expect(try editor.read(["com.example.demo", "age"], until: "") == "")
    try session.send("f")
    let all = try session.waitForScreen { $0.contains { $0.contains("Change log: 3 changes") } }
    #expect(all.contains { $0.contains("age: 42 → (none)  by this editor") })
    // Enter: back to the rows, on the row of the selected change.
    try session.send("Down", "Enter")
    let rows = try session.waitForScreen { !$0.contains { $0.contains("Change log") } }
    #expect(rows[22].hasPrefix(" name"), "\(rows[22])")
  }

  @Test func withCountersEachChangeSaysWhatItDidDownstream() throws {
    let session = try editorOnAge()
    try session.send("c")
    try session.waitForScreen { $0.contains { $0.contains("Told Redraws") } }
    _ = try writeAge(42)
    let screen = try session.waitForScreen { $0[22].hasPrefix(" age: 1 key changed → ") }
    let line = screen[22]
    #expect(
      line.range(
        of:
          #"^ age: 1 key changed → [1-9][0-9]* observers? told → 1 row redrawn of 3 \([1-9][0-9,]* bytes written\) *$"#,
        options: .regularExpression) != nil, "\(line)")
    let told = String(line.split(separator: "→")[1].split(separator: " ")[0])
    let age = try #require(screen.first { $0.contains("│~ age") || $0.contains("│* age") })
    #expect(age.hasSuffix("\(told)    ↻1"), "\(age)")
    let name = try #require(screen.first { $0.contains("│  name") })
    #expect(name.hasSuffix("0    ↻0"), "\(name)")
  }
}

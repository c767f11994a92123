import Foundation
import TestSupport
import Testing

/// The editor program under tmux on the demo suite an administrator set values for (its
/// `XDG_CONFIG_DIRS` is a temporary folder): the locked row is marked and refuses edits, and a
/// change of the mandatory file redraws only its row.
extension TerminalEditorTests {
  @Test func aLockedRowIsMarkedRefusesEditsAndFollowsTheAdministrator() throws {
    let lock = try editor.system.write(["age": 99], suite: "com.example.demo", mandatory: true)
    try editor.system.write(["nickname": "Bobby"], suite: "com.example.demo")
    let session = try TmuxSession(command: editor.shellCommand([]), columns: 320)
    var screen = try session.waitForScreen {
      self.row("age", in: $0)?.hasSuffix("99") == true
    }
    #expect(row("age", in: screen)?.contains("# age") == true)
    #expect(row("nickname", in: screen)?.hasSuffix("Bobby") == true)

    try session.send("Down")
    screen = try session.waitForScreen { $0[22].hasPrefix(" age") }
    #expect(
      screen[22].trimmingCharacters(in: .whitespaces)
        == "age · The user's age in years. · default: 20 · locked: mandatory, set by \(lock.path)")
    try session.send("Enter")
    screen = try session.waitForScreen { $0.contains { $0.contains("is read-only") } }
    #expect(
      screen.contains {
        $0.hasPrefix(" age is read-only: locked: mandatory, set by \(lock.path)")
      })
    #expect(try editor.run("read", "com.example.demo", "age").output == "99\n")

    try session.send("Escape", "c")
    try session.waitForScreen { $0.contains { $0.contains("Redraws") } }
    try editor.system.write(["age": 100], suite: "com.example.demo", mandatory: true)
    screen = try session.waitForScreen {
      self.row("age", in: $0).map { $0.contains("100") && $0.hasSuffix("↻1") } == true
    }
    #expect(row("name", in: screen)?.hasSuffix("↻0") == true)
    #expect(row("nickname", in: screen)?.hasSuffix("↻0") == true)
  }
}

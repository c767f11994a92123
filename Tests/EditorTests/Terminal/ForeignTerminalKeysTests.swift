import Foundation
import TestSupport
import Testing

/// Inside tmux with `TERM=xterm-256color` (a common setting), Home and End arrive as
/// `Esc [ 1 ~` and `Esc [ 4 ~`, which xterm's terminfo does not list: they must still be Home and
/// End, not Escape (which closed the field) and other keys.
extension TerminalEditorTests {
  @Test func homeAndEndWorkInAFieldWhenTERMNamesAnotherTerminal() throws {
    let file = editor.preferences.appendingPathComponent("keys.plist").path
    #expect(try editor.run("write", file, "name", "abc").status == 0)
    let session = try TmuxSession(
      command: editor.shellCommand([file], environment: ["TERM": "xterm-256color"]))
    try session.waitForScreen { $0.contains { $0.contains("name") } }
    try session.send("Enter")
    try session.waitForScreen { $0.contains { $0.contains("name (String): abc") } }
    try session.send("Home")
    try session.type("X")
    try session.send("End")
    try session.type("Y")
    try session.waitForScreen { $0.contains { $0.contains("name (String): XabcY") } }
    try session.send("Enter")
    #expect(try editor.read([file, "name"], until: "XabcY\n") == "XabcY\n")
  }
}

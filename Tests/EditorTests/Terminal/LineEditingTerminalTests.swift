import Foundation
import TestSupport
import Testing

/// Line editing and `$EDITOR` on the built program under tmux, typed as a user would.
extension TerminalEditorTests {
  @Test func shellKeysEditAFieldAndEditorEditsAValue() throws {
    let command = "env EDITOR='sed -i s/Bob/Rob/' " + editor.shellCommand([])
    let session = try TmuxSession(command: command)
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("Enter")
    try session.waitForScreen { $0[22].contains("name (String): Fatbobman") }
    try session.send("C-a")
    try session.type("Mr ")
    try session.send("C-e", "M-b", "C-k")
    try session.type("Bob")
    var screen = try session.waitForScreen { $0[22].contains("name (String): Mr Bob") }
    #expect(screen[22].hasSuffix("Mr Bob"))
    try session.send("C-w", "C-w", "C-u")
    try session.type("Mr Bob")
    try session.send("Enter")
    #expect(try editor.read(["com.example.demo", "name"], until: "Mr Bob\n") == "Mr Bob\n")

    try session.send("e")
    screen = try session.waitForScreen { self.row("name", in: $0)?.hasSuffix("Mr Rob") == true }
    #expect(screen[22] == " Saved name = Mr Rob")
    #expect(try editor.read(["com.example.demo", "name"], until: "Mr Rob\n") == "Mr Rob\n")
  }
}

import Foundation
import TestSupport
import Testing

/// Keys of a property-list file opened by path, edited in the built program under tmux as a
/// user would: `a` adds a typed key, `R` renames it, `d` removes it.
extension TerminalEditorTests {
  @Test func aFileOpenedByPathTakesNewRenamedAndRemovedKeys() throws {
    let file = editor.preferences.appendingPathComponent("by-path.plist").path
    #expect(try editor.run("write", file, "list", "-array", "a", "b").status == 0)
    let session = try TmuxSession(command: editor.shellCommand([file]))
    try session.waitForScreen { $0.contains { $0.contains("list") } }

    try session.send("a")
    try session.waitForScreen { $0[22].contains("New key of by-path.plist") }
    try session.type("volume -int 7")
    try session.send("Enter")
    #expect(try editor.read([file, "volume"], until: "7\n") == "7\n")

    try session.send("R", "C-u")
    try session.type("loudness")
    try session.send("Enter")
    #expect(try editor.read([file, "loudness"], until: "7\n") == "7\n")
    #expect(try editor.run("read", file, "volume").status != 0, "the old key is gone")

    try session.send("d")
    #expect(try pollBlocking { try editor.run("read", file, "loudness").status != 0 })
    let rest = "{\n    list = (\n        a,\n        b\n    );\n}\n"
    #expect(try editor.read([file], until: rest) == rest, "only the file's own key is left")
  }
}

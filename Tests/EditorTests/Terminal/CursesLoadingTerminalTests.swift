import Foundation
import TestSupport
import Testing

/// ncurses is loaded with `dlopen` when the editor first draws, so that the verbs start without
/// it (`ProgramStartExitTests.readAndWriteLoadNoCurses`): the dynamic loader's log
/// (`LD_DEBUG=files`) of the editor drawing under tmux.
extension TerminalEditorTests {
  @Test func theEditorLoadsCursesWhenItFirstDraws() throws {
    let log = editor.preferences.appendingPathComponent("loader")
    let session = try TmuxSession(
      command: editor.shellCommand(
        [], environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log.path])
    )
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    let pid = try #require(try session.processID())
    let lines = try String(contentsOfFile: "\(log.path).\(pid)", encoding: .utf8)
      .split(separator: "\n")
    // Each library the loader maps is one line: "needed by" a program or library at start, or
    // "dynamically loaded by" the program that opened it.
    let loads = lines.filter { line in
      line.contains("file=libncursesw.so.6 [")
        && (line.contains("needed by") || line.contains("dynamically loaded by"))
    }
    #expect(loads.count == 1)
    #expect(loads.first?.contains("dynamically loaded by") == true, "\(loads)")
  }
}

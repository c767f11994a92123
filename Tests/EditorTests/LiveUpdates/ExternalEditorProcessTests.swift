import Foundation
import TestSupport
import Testing

/// Issue 20: the user's editor, started by the real program, gets a private file and no secret
/// of the package in its environment.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed (CI installs it with apt-get)"))
struct ExternalEditorProcessTests {
  @Test func theEditorsFileIs0600InA0700FolderAndItsEnvironmentHasNoSecret() throws {
    let editor = try EditorProcess()
    let temporary = editor.preferences.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
    let report = editor.preferences.appendingPathComponent("report")
    let script = editor.preferences.appendingPathComponent("dump-editor")
    try """
    { env | grep '^OBSERVABLE_DEFAULTS_' | sort; stat -c '%a %n' "$1" "$(dirname "$1")"; } \
      > "\(report.path).tmp"
    mv "\(report.path).tmp" "\(report.path)"
    """.write(to: script, atomically: true, encoding: .utf8)
    let session = try TmuxSession(
      command: editor.shellCommand(
        [],
        environment: [
          // Run by sh, not executed: a child another test forks while the file is being written
          // holds it open for writing, and exec would fail with ETXTBSY.
          "EDITOR": "sh " + script.path, "VISUAL": "", "TMPDIR": temporary.path,
          "OBSERVABLE_DEFAULTS_ETCD_USER": "alice", "OBSERVABLE_DEFAULTS_ETCD_PASSWORD": "hunter2",
          "OBSERVABLE_DEFAULTS_ETCD_KEY_FILE": "/etc/etcd/client.key",
          "OBSERVABLE_DEFAULTS_NATS_TOKEN": "t0ken", "OBSERVABLE_DEFAULTS_NATS_NKEY": "SUAB",
        ]))
    try session.waitForScreen { $0.contains { $0.contains("nickname") } }
    try session.send("e")
    let ran = pollBlocking { FileManager.default.fileExists(atPath: report.path) }
    let screen = try session.screen().joined(separator: "\n")
    try #require(ran, "the editor ran: \(screen)")
    let lines = try String(contentsOf: report, encoding: .utf8).split(separator: "\n")
      .map(String.init)
    // The folder is gone as soon as the editor returns: its name comes from the report.
    let folder = try #require(lines.last?.split(separator: " ", maxSplits: 1).last.map(String.init))
    let name = URL(fileURLWithPath: folder).lastPathComponent
    #expect(URL(fileURLWithPath: folder).deletingLastPathComponent().path == temporary.path)
    #expect(name.hasPrefix("settings-editor-") && name.count == 22, "\(name)")
    #expect(
      lines == [
        "OBSERVABLE_DEFAULTS_ETCD_KEY_FILE=/etc/etcd/client.key",
        "OBSERVABLE_DEFAULTS_ETCD_USER=alice",
        "600 \(folder)/value.txt",
        "700 \(folder)",
      ])
    #expect(
      pollBlocking { (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) == [] },
      "the folder is removed once the editor is done")
    #expect(session.isRunning)
  }
}

import Foundation
import TestSupport
import Testing

/// The verbs on a suite with system-wide defaults and mandatory values (a temporary folder
/// stands for `/etc/xdg`): `read` shows what programs read, `--source` says where it comes from,
/// and a write to a mandatory key is refused with 77 naming the file that locks it.
@Suite struct SystemDefaultsVerbTests {
  let editor: EditorProcess
  let suite = "com.example.locked"
  let lock: URL
  let shipped: URL

  init() throws {
    editor = try EditorProcess()
    lock = try editor.system.write(["theme": "dark"], suite: suite, mandatory: true)
    shipped = try editor.system.write(["theme": "sepia", "size": 12], suite: suite)
  }

  var userFile: URL { editor.preferences.appendingPathComponent(suite + ".plist") }

  @Test func aWriteToAMandatoryKeyIsRefusedWith77NamingTheFile() throws {
    for arguments in [["write", suite, "theme", "light"], ["delete", suite, "theme"]] {
      let refused = try editor.run(arguments)
      #expect(refused.status == 77, "\(arguments)")
      #expect(
        refused.error
          == "settings-editor: the key theme of suite \(suite) is mandatory: \(lock.path) sets "
          + "it; nothing was written\n")
    }
    #expect(!FileManager.default.fileExists(atPath: userFile.path))
    #expect(try editor.run("read", suite, "theme").output == "dark\n")
    // An import that would change the key is refused before it writes anything.
    let input = editor.preferences.appendingPathComponent("input.json")
    try Data(#"{"theme": "light", "size": 1}"#.utf8).write(to: input)
    let imported = try editor.run("import", suite, input.path, "--json")
    #expect(imported.status == 77)
    #expect(imported.error.contains("the key theme of suite \(suite) is mandatory"))
    #expect(!FileManager.default.fileExists(atPath: userFile.path))
    #expect(try editor.run("write", suite, "size", "-int", "14").status == 0)
    #expect(try editor.run("read", userFile.path).output == "{\n    size = 14;\n}\n")
    // A user's file holding the mandatory key: deleting the whole suite is refused the same
    // way, and nothing goes (it warned, exited 0 and deleted the file).
    try PropertyListSerialization.data(
      fromPropertyList: ["size": 14, "theme": "mine"], format: .xml, options: 0
    ).write(to: userFile)
    let deleted = try editor.run("delete", suite)
    #expect(deleted.status == 77)
    #expect(
      deleted.error
        == "settings-editor: the key theme of suite \(suite) is mandatory: \(lock.path) sets "
        + "it; nothing was written\n")
    #expect(
      try editor.run("read", userFile.path).output == "{\n    size = 14;\n    theme = mine;\n}\n")
  }

  @Test func readShowsWhatProgramsReadAndSourceSaysWhere() throws {
    #expect(try editor.run("write", suite, "name", "me").status == 0)
    #expect(
      try editor.run("read", suite).output
        == "{\n    name = me;\n    size = 12;\n    theme = dark;\n}\n")
    let sources = try ["theme", "size", "name", "colour"].map {
      try editor.run("read", suite, $0, "--source")
    }
    #expect(sources.map(\.status) == [0, 0, 0, 0])
    #expect(
      sources.map(\.output) == [
        "mandatory: \(lock.path)\n", "system: \(shipped.path)\n", "user: \(userFile.path)\n",
        "default\n",
      ])
    #expect(try editor.run("read", suite, "--source").status == 64)
  }

  @Test func anUnparseableSystemFileIsNamedAndIgnored() throws {
    try Data("garbage".utf8).write(to: shipped)
    #expect(try editor.run("write", suite, "size", "-int", "3").status == 0)
    let read = try editor.run("read", suite, "size", "--source")
    #expect(read.status == 0)
    #expect(read.output == "user: \(userFile.path)\n")
    #expect(
      read.error.hasPrefix(
        "settings-editor: \(shipped.path) is not used: it is not a valid property list ("))
  }

  @Test func aSystemFolderWritableByOthersIsRefusedWithAMessage() throws {
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o777], ofItemAtPath: editor.system.url.path)
    let write = try editor.run("write", suite, "theme", "light")
    #expect(write.status == 0)
    let folder = editor.system.url.path
    #expect(
      write.error == """
        settings-editor: \(shipped.path) is not used: \(folder) is writable by others (mode 777; \
        chmod o-w \(folder))
        settings-editor: \(lock.path) is not used: \(folder) is writable by others (mode 777; \
        chmod o-w \(folder))

        """)
    #expect(try editor.run("read", suite, "theme").output == "light\n")
  }

  /// `watch` prints what programs read: an administrator's change as one, and a user's value
  /// over a system-wide default against that default. The user's change is waited for before
  /// the administrator's: the user's file and the system files are re-read on queues of their
  /// own, so changes of different files made within moments may be printed in either order
  /// (each line has its time); under load the user's line came last in 1 of 12 runs.
  @Test func watchPrintsTheValuesProgramsRead() throws {
    let watcher = try Watcher(editor, [suite])
    watcher.wait(onError: true) { $0.contains("watching") }
    #expect(try editor.run("write", suite, "size", "-int", "14").status == 0)
    watcher.wait { $0.contains("size: 12 → 14") }
    _ = try editor.system.write(["theme": "sepia", "size": 12, "font": "mono"], suite: suite)
    _ = try editor.system.write(["theme": "light"], suite: suite, mandatory: true)
    let expected = """
      TIME  \(suite)  size: 12 → 14  (settings-editor (pid N))
      TIME  \(suite)  font: (none) → mono  (administrator)
      TIME  \(suite)  theme: dark → light  (administrator)

      """
    #expect(
      normalizedChangeLines(watcher.wait { normalizedChangeLines($0) == expected }) == expected)
    #expect(watcher.stop(with: SIGINT) == 0)
  }
}

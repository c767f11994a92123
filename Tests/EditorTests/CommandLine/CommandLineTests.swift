import Foundation
import TestSupport
import Testing

/// The `read`, `write` and `delete` verbs, run as the built program.
@Suite(.serialized) struct CommandLineTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  @Test func writeReadAndDeleteLikeDefaults() throws {
    #expect(try editor.run("write", "com.example.demo", "name", "Bob Smith").status == 0)
    #expect(try editor.run("write", "com.example.demo", "age", "-int", "42").status == 0)
    #expect(try editor.run("write", "com.example.demo", "ratio", "-float", "1.5").status == 0)
    #expect(try editor.run("write", "com.example.demo", "enabled", "-bool", "YES").status == 0)

    let domain = try editor.run("read", "com.example.demo")
    #expect(domain.status == 0)
    #expect(
      domain.output == """
        {
            age = 42;
            enabled = 1;
            name = "Bob Smith";
            ratio = 1.5;
        }

        """)
    #expect(try editor.run("read", "com.example.demo", "name").output == "Bob Smith\n")

    #expect(try editor.run("delete", "com.example.demo", "ratio").status == 0)
    let afterDelete = try editor.run("read", "com.example.demo", "ratio")
    #expect(afterDelete.status == 1)
    #expect(
      afterDelete.error
        == "settings-editor: the key ratio does not exist in suite com.example.demo\n")
  }

  @Test func badInputFailsWithAMessageAndKeepsTheValue() throws {
    _ = try editor.run("write", "com.example.demo", "age", "-int", "20")
    let refused = try editor.run("write", "com.example.demo", "age", "-int", "twenty")
    #expect(refused.status == 65)
    #expect(
      refused.error
        == "settings-editor: \"twenty\" is not an integer (whole number up to 18446744073709551615)\n"
    )
    #expect(try editor.run("read", "com.example.demo", "age").output == "20\n")

    let missingSuite = try editor.run("read", "com.example.missing")
    #expect(missingSuite.status == 1)
    #expect(
      missingSuite.error.hasPrefix("settings-editor: the suite com.example.missing does not exist"))

    let missingKey = try editor.run("delete", "com.example.demo", "nothing")
    #expect(missingKey.status == 1)
    #expect(!missingKey.error.isEmpty)
  }

  @Test func usageErrorsExitWith64() throws {
    for arguments in [
      ["frobnicate"], ["write", "com.example.demo"], ["write", "s", "k", "-nope", "x"], ["--bogus"],
    ] {
      let result = try editor.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.error.contains("--help"), "\(arguments)")
    }
  }

  @Test func helpDescribesEveryVerb() throws {
    let help = try editor.run("--help")
    #expect(help.status == 0)
    for verb in [
      "read <suite | file.plist> [key] [--raw]", "read-type <suite | file.plist> <key>",
      "write <suite | file.plist> <key> [-type] <value>",
      "rename <suite | file.plist> <old key> <new key>", "delete <suite | file.plist> [key]",
      "domains", "find <word>", "export <suite | file.plist> [--json]",
      "import <suite> <input | -> [--json]", "watch <suite> [key]", "help [verb]", "Exit status:",
    ] {
      #expect(help.output.contains(verb))
    }
  }

  @Test func readsFixtureFilesByPath() throws {
    let rectangle = TestPreferences.fixtures.appendingPathComponent("rectangle-binary.plist").path
    #expect(try editor.run("read", rectangle, "lastVersion").output == "92\n")
    #expect(
      try editor.run("read", rectangle, "leftHalf").output
        == "{\n    keyCode = 123;\n    modifierFlags = 1572864;\n}\n")
    let global = TestPreferences.fixtures.appendingPathComponent("global-preferences-binary.plist")
      .path
    #expect(try editor.run("read", global, "AppleLanguagesSchemaVersion").output == "3000\n")
    let empty = TestPreferences.fixtures.appendingPathComponent("empty-dict-binary.plist").path
    #expect(try editor.run("read", empty).output == "{\n}\n")
  }

  @Test func theEditorNeedsATerminal() throws {
    let result = try editor.run()
    #expect(result.status == 1)
    #expect(result.error.contains("the editor needs a terminal"))
  }
}

extension CommandLineTests {
  /// Bug 11: `read` of a file that is not a property list said "…it was left unchanged": `read`
  /// never changes anything.
  @Test func readingAFileThatIsNotAPropertyListSaysOnlyThat() throws {
    let file = editor.preferences.appendingPathComponent("README.md")
    try Data("# Not a property list\n".utf8).write(to: file)
    let result = try editor.run("read", file.path)
    #expect(result.status == 65)
    #expect(result.error.hasPrefix("settings-editor: \(file.path) is not a valid property list ("))
    #expect(!result.error.contains("unchanged"))
  }
}

extension CommandLineTests {
  /// Bug 15: `.rectangle-binary.plist.lock` stayed beside the user's own files after a save.
  @Test func savingAFileLeavesNothingBesideIt() throws {
    let folder = editor.preferences.appendingPathComponent("mine")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("rectangle-binary.plist")
    try FileManager.default.copyItem(
      at: TestPreferences.fixtures.appendingPathComponent("rectangle-binary.plist"), to: file)
    #expect(try editor.run("write", file.path, "lastVersion", "93").status == 0)
    #expect(try editor.run("read", file.path, "lastVersion").output == "93\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["rectangle-binary.plist"]
    )
  }
}

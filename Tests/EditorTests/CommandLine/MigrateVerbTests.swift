import Foundation
import ObservableDefaultsCore
import Testing

/// `settings-editor migrate <suite> [--dry-run]`, run as the built program on a suite written by
/// version 1 of the demo's account settings.
@Suite(.serialized) struct MigrateVerbTests {
  private let editor: EditorProcess
  private let suiteFile: URL

  init() throws {
    editor = try EditorProcess()
    suiteFile = editor.preferences.appendingPathComponent("com.example.account.plist")
    _ = try PropertyListFile(url: suiteFile).apply([
      "user_name": .set("Ann"), "sessionTimeout": .set(900),
    ])
  }

  private let changes = """
    com.example.account: schema version 0 → 2
      step 1: user_name becomes displayName
      step 2: sessionTimeout in seconds becomes sessionMinutes
      displayName: (none) → Ann
      sessionMinutes: (none) → 15.0
      sessionTimeout: 900 → (none)
      user_name: Ann → (none)

    """

  @Test func aDryRunPrintsTheChangesAndWritesNothing() throws {
    let before = try Data(contentsOf: suiteFile)
    let result = try editor.run("migrate", "com.example.account", "--dry-run")
    #expect(result.status == 0)
    #expect(
      result.output
        == changes.replacingOccurrences(of: "0 → 2\n", with: "0 → 2 (dry run, nothing written)\n"))
    #expect(try Data(contentsOf: suiteFile) == before)
  }

  @Test func migratingAppliesTheStepsOnce() throws {
    let result = try editor.run("migrate", "com.example.account")
    #expect(result.status == 0)
    #expect(result.output == changes)
    let values = try #require(try PropertyListFile(url: suiteFile).read()).values.stringKeyed
    #expect(
      values.keys.sorted() == ["ObservableDefaults.schemaVersion", "displayName", "sessionMinutes"])
    #expect(values["sessionMinutes"] as? Double == 15.0)
    let again = try editor.run("migrate", "com.example.account", "--dry-run")
    #expect(again.output == "com.example.account is at schema version 2; nothing to do\n")
  }

  @Test func aSuiteWithoutASchemaIsRefused() throws {
    let result = try editor.run("migrate", "com.example.other")
    #expect(result.status == 1)
    #expect(
      result.error == "settings-editor: no settings class of this program declares a schema for "
        + "com.example.other (known: com.example.account)\n")
  }
}

import Foundation
import TestSupport
import Testing

/// `--readonly` and `--color` on the command line: options of the editor only.
@Suite struct EditorOptionsTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  @Test func aColorOtherThanAutoAlwaysOrNeverIsAUsageError() throws {
    let result = try editor.run("--color=purple")
    #expect(result.status == 64)
    #expect(result.error.contains("--color takes auto, always or never"))
  }

  @Test func editorOptionsWithAVerbAreAUsageError() throws {
    let result = try editor.run("read", "com.example.demo", "--readonly")
    #expect(result.status == 64)
    #expect(result.error.contains("options of the editor, not of read"))
  }

  @Test func withoutATerminalTheEditorSaysSoWhateverTheOptions() throws {
    let result = try editor.run("--readonly", "--color=never")
    #expect(result.status == 1)
    #expect(result.error.contains("terminal"))
  }
}

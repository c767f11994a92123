import Foundation
import ObservableDefaults
import Testing

@testable import SettingsEditor

/// `e` and Ctrl-G: a value in the user's editor, JSON pretty-printed out and checked back in.
@MainActor
@Suite struct ExternalEditorTests {
  private let settings: EditorTypeSettings
  private let session: EditorSession
  private let screen: EditorScreen
  private let canvas: MemoryCanvas
  /// What the fake editor was given, and what it saves.
  private final class FakeEditor {
    var given: [(String, String)] = []
    var saves: (String) -> String? = { $0 }
  }
  private let editor = FakeEditor()

  init() {
    settings = EditorTypeSettings(
      userDefaults: TestPreferences.writer(ofSuite: TestPreferences.uniqueSuite()))
    (canvas, session, screen) = TestScreen.show(SettingsObjectRows(AnySettings(settings)), rows: 24)
    let editor = editor
    session.externalEditor = { text, fileExtension in
      editor.given.append((text, fileExtension))
      return editor.saves(text)
    }
    for _ in 0..<9 { screen.draw(session.handle(.down)) }  // frame
  }

  @Test func eOpensJSONPrettyPrintedAndStoresWhatComesBack() {
    editor.saves = { $0.replacingOccurrences(of: "600", with: "700") + "\n" }
    screen.draw(session.handle(.character("e")))
    #expect(editor.given.count == 1)
    #expect(editor.given.first?.0 == "{\n  \"height\" : 600,\n  \"width\" : 800\n}")
    #expect(editor.given.first?.1 == "json")
    #expect(settings.frame == Frame(width: 800, height: 700))
    #expect(session.state.mode == .browsing)
    #expect(canvas.line(22) == #" Saved frame = {"height":700,"width":800}"#)
  }

  @Test func brokenJSONFromTheEditorStaysInTheFieldWithTheReason() {
    editor.saves = { _ in "{\"height\": 7" }
    screen.draw(session.handle(.enter))
    screen.draw(session.handle(KeyMap.externalEditorKey))
    #expect(settings.frame == Frame(), "nothing written")
    guard case .editing(_, _, let field) = session.state.mode else {
      Issue.record("the field stays open to fix the text")
      return
    }
    #expect(field.text == "{\"height\": 7")
    #expect(
      session.state.message?.text.hasPrefix("frame (Frame) not changed: not valid JSON") == true)
  }

  @Test func anEditorThatFailsKeepsTheDraft() {
    editor.saves = { _ in nil }
    screen.draw(session.handle(.character("e")))
    guard case .editing(_, _, let field) = session.state.mode else {
      Issue.record("the draft stays in a field")
      return
    }
    #expect(field.text == #"{"height":600,"width":800}"#)
    #expect(session.state.message?.text.contains("did not run") == true)
  }
}

import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// `d` and `u` on a raw suite: `d` removes the key (a suite has no defaults), `u` writes the
/// previous value back through `PropertyListDefaults.write`.
@MainActor
@Suite struct RawSuiteResetUndoTests {
  @Test func dRemovesTheKeyAndUPutsItBack() throws {
    let (suite, writer) = try TestPreferences.suite(["age": 20, "name": "Fatbobman"])
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    let session = EditorSession(sources: [domain])
    #expect(session.focusedRow?.key == "age")

    _ = session.handle(.character("d"))
    #expect(session.state.message?.text.hasPrefix("age removed") == true)
    #expect(session.state.message?.isError == false)
    #expect(domain.rowCount == 1)
    #expect(session.focusedRow?.key == "name")
    #expect(writer.persistentValue(forKey: "age") == nil)
    try writer.flush()
    let removed = try #require(
      try PropertyListFile(url: TestPreferences.file(ofSuite: suite)).read())
    #expect(removed.values["age"] == nil)
    #expect(removed.values["name"] as? String == "Fatbobman")

    _ = session.handle(.character("u"))
    #expect(session.state.message?.text == "Undid reset age")
    #expect(domain.rowCount == 2)
    #expect(session.focusedRow?.key == "age", "the focus follows the key that came back")
    #expect(session.focusedRow?.value == "20")
    try writer.flush()
    let restored = try #require(
      try PropertyListFile(url: TestPreferences.file(ofSuite: suite)).read())
    #expect(restored.values["age"] as? Int == 20)
  }

  @Test func undoOfAnEditFindsItsKeyAfterAnotherWriterAddedOne() throws {
    let (suite, writer) = try TestPreferences.suite(["b": 20])
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let session = EditorSession(sources: [domain])
    for key: KeyPress in [.enter, .backspace, .backspace, .character("7"), .enter] {
      _ = session.handle(key)
    }
    #expect(writer.persistentValue(forKey: "b") as? Int == 7)
    try writer.write("new", forKey: "a")  // "b" moves to row 1
    _ = session.handle(.character("u"))
    #expect(writer.persistentValue(forKey: "b") as? Int == 20)
    #expect(writer.persistentValue(forKey: "a") as? String == "new")
    #expect(session.focusedRow?.key == "b")
  }

  @Test func onScreenTheRemovedRowGoesAndUndoBringsItBackFocused() throws {
    let (suite, _) = try TestPreferences.suite(
      ["age": 20, "enabled": true, "name": "Fatbobman"])
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let (canvas, session, screen) = TestScreen.show(domain, rows: 10)
    screen.draw(session.handle(.character("j")))  // focus "enabled"
    screen.draw(session.handle(.character("d")))
    #expect(canvas.line(2).contains("age "))
    #expect(canvas.line(3).contains("name "))
    #expect(!canvas.line(4).contains("enabled"))
    #expect(canvas.line(8).contains("enabled removed"))
    #expect(session.focusedRow?.key == "name")

    screen.draw(session.handle(.character("u")))
    #expect(canvas.line(3).contains("enabled "))
    #expect(canvas.line(4).contains("name "))
    #expect(session.focusedRow?.key == "enabled")
    #expect(canvas.line(8).contains("Undid reset enabled"))
  }
}

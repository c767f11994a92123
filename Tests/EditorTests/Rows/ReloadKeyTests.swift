import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// `r` reads an object, a file or a suite again from disk; a save refused because another writer changed
/// the file already says so.
@MainActor
@Suite struct ReloadKeyTests {
  @Test func aRefusedSaveOffersRAndRShowsTheOtherWritersValuesThenSavesAgain() throws {
    let url = try TestPreferences.propertyListFile(["age": 20, "name": "Fatbobman"])
    let domain = try PropertyListFileRows(file: url)
    let (canvas, session, screen) = TestScreen.show(domain, rows: 12, columns: 100)
    #expect(canvas.line(11).contains("r reload"))

    _ = try PropertyListFile(url: url).apply(["age": .set(30)])
    for key: KeyPress in [.enter, .backspace, .backspace, .character("2"), .character("5"), .enter]
    {
      screen.draw(session.handle(key))
    }
    let refusal = try #require(session.state.message)
    #expect(refusal.isError)
    #expect(refusal.text.contains("age not saved"))
    #expect(refusal.text.hasSuffix("Esc, then r reloads"))
    screen.draw(session.handle(.escape))
    #expect(canvas.line(2).contains("20"))

    let before = screen.redrawCount(source: 0, row: 0)
    screen.draw(session.handle(.character("r")))
    #expect(session.state.message?.text.hasPrefix("Reloaded") == true)
    #expect(canvas.line(2).contains("age") && canvas.line(2).contains("30"))
    #expect(session.focusedRow?.key == "age")
    #expect(screen.redrawCount(source: 0, row: 0) == before + 1, "the reloaded row redraws once")
    #expect(screen.redrawCount(source: 0, row: 1) == 0, "an unchanged row does not")

    for key: KeyPress in [.enter, .backspace, .backspace, .character("3"), .character("1"), .enter]
    {
      screen.draw(session.handle(key))
    }
    #expect(session.state.message?.isError == false)
    #expect(try PropertyListFile(url: url).read()?.values["age"] as? Int == 31)
    #expect(try PropertyListFile(url: url).read()?.values["name"] as? String == "Fatbobman")
  }

  @Test func aRefusedToggleOffersRDirectly() throws {
    let url = try TestPreferences.propertyListFile(["on": true])
    let domain = try PropertyListFileRows(file: url)
    let session = EditorSession(sources: [domain])
    _ = try PropertyListFile(url: url).apply(["on": .set(false)])
    _ = session.handle(.character(" "))
    #expect(session.state.message?.text.hasSuffix("; r reloads") == true)
    _ = session.handle(.character("r"))
    #expect(session.focusedRow?.value == "false")
  }

  @Test func rReadsASettingsObjectAgainFromDisk() throws {
    let suite = TestPreferences.uniqueSuite()
    let settings = EditorTypeSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    let session = EditorSession(sources: [SettingsObjectRows(AnySettings(settings))])
    // Another process's write: the file's bytes change under the store.
    try PropertyListSerialization.data(fromPropertyList: ["volume": 42], format: .xml, options: 0)
      .write(to: TestPreferences.file(ofSuite: suite))
    _ = session.handle(.character("r"))
    #expect(
      session.state.message
        == .init(text: "Reloaded EditorTypeSettings from disk", isError: false))
    #expect(settings.volume == 42)
  }

  @Test func rReloadsASuite() throws {
    let (suite, _) = try TestPreferences.suite(["age": 20])
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    let session = EditorSession(sources: [domain])
    _ = session.handle(.character("r"))
    #expect(session.state.message == .init(text: "Reloaded \(suite) from disk", isError: false))
    #expect(session.focusedRow?.value == "20")
  }

  @Test func rIsInEveryHelpAndInTheKeyBarWhereSavesPointAtIt() {
    #expect(KeyMap.browseHints(for: nil, reloads: true).contains("r reload"))
    #expect(!KeyMap.browseHints(for: nil, reloads: false).contains("r reload"))
    #expect(
      KeyMap.helpLines().first { $0.label == "r" }?.text
        == "read again from disk (drops a file's edits)")
    // A suite's key list (r, a, R too) fits the 21 lines of an 80×24 screen, one line each.
    let suiteKeys = KeyMap.helpLines(editsKeys: true)
    let labelWidth = suiteKeys.map(\.label.count).max() ?? 0
    #expect(suiteKeys.count <= 21)
    #expect(suiteKeys.allSatisfy { labelWidth + 4 + $0.text.count <= 59 }, "\(suiteKeys)")
    let session = EditorSession(sources: [SampleRowSource()])
    _ = session.handle(.character("r"))
    #expect(session.state.message?.text.contains("nothing to reload") == true)
  }
}

import Foundation
import ObservableDefaults
import Testing

@testable import SettingsEditor

/// Enter on a `Bool` or an enumeration opens a picker on the current value (nothing is stored
/// before Enter; Esc cancels); Space and ← → still store the next value at once.
@MainActor
@Suite struct PickerTests {
  private let settings = EditorTypeSettings(
    userDefaults: TestPreferences.writer(ofSuite: TestPreferences.uniqueSuite()))
  private let session: EditorSession

  init() {
    session = EditorSession(sources: [SettingsObjectRows(AnySettings(settings))])
  }

  @Test func enterOnABoolPicksAndStoresOnlyOnEnter() throws {
    try session.focus("isOn")
    session.press(.enter)
    let index = session.state.rowIndex
    #expect(session.state.mode == .picking(row: index, choices: ["false", "true"], selected: 0))
    #expect(settings.isOn == false, "opening the picker stores nothing")
    session.press(.right)
    #expect(session.state.mode == .picking(row: index, choices: ["false", "true"], selected: 1))
    #expect(settings.isOn == false)
    session.press(.enter)
    #expect(session.state.mode == .browsing)
    #expect(settings.isOn == true)
    #expect(session.state.message == .init(text: "Saved isOn = true", isError: false))
  }

  @Test func escCancelsThePicker() throws {
    try session.focus("mood")
    session.press(.enter)
    #expect(
      session.state.mode
        == .picking(row: 0, choices: ["calm", "busy", "away"], selected: 0))
    session.press(.right, .right, .escape)
    #expect(session.state.mode == .browsing)
    #expect(settings.mood == .calm)
  }

  @Test func enterOnAnEnumStoresThePickedCase() throws {
    try session.focus("mood")
    session.press(.enter, .left, .enter)
    #expect(settings.mood == .away, "← from the first case wraps to the last")
    session.press(.enter, .enter)
    #expect(settings.mood == .away)
    #expect(session.state.message == .init(text: "Nothing changed", isError: false))
  }

  @Test func spaceStillTogglesAtOnce() throws {
    try session.focus("isOn")
    session.press(.character(" "))
    #expect(settings.isOn == true)
    #expect(session.state.mode == .browsing)
  }

  @Test func thePickerIsDrawnOnTheStatusLine() throws {
    try session.focus("isOn")
    let canvas = MemoryCanvas(rows: 24, columns: 80)
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    screen.draw(session.handle(.enter))
    #expect(canvas.line(22) == " isOn (Bool):  false  true")
    #expect(canvas.style(row: 22, column: 15).contains(.reverse), "the current value is selected")
    #expect(!canvas.style(row: 22, column: 22).contains(.reverse))
    #expect(canvas.line(23) == " ←→ pick  Enter save  Esc cancel")
  }

  @Test func theHelpSaysWhatEnterAndSpaceDo() {
    let help = Dictionary(uniqueKeysWithValues: KeyMap.helpLines().map { ($0.label, $0.text) })
    #expect(help["Enter"] == "edit or pick the value; open an object")
    #expect(help["Space"] == "toggle a Bool, next case of an enum")
  }
}

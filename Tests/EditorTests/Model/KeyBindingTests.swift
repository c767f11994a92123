import Foundation
import ObservableDefaults
import Testing

@testable import SettingsEditor

/// Each key of the browse table on settings objects made by the macros.
@MainActor
@Suite struct KeyBindingTests {
  private let suite = TestPreferences.uniqueSuite()
  private let types: EditorTypeSettings
  private let profile: ProfileSettings
  private let session: EditorSession

  init() {
    types = EditorTypeSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    profile = ProfileSettings(userDefaults: TestPreferences.writer(ofSuite: suite + ".profile"))
    session = EditorSession(sources: [
      SettingsObjectRows(AnySettings(types)), SettingsObjectRows(AnySettings(profile)),
    ])
    session.pageSize = 5
  }

  private func press(_ keys: KeyPress...) {
    for key in keys { session.press(key) }
  }

  private func type(_ text: String) {
    for character in text { press(.character(character)) }
  }

  /// What the object's store holds under `key` (nil: nothing stored).
  private func stored(_ key: String) -> Any? {
    types._$settingsStore.store.object(forKey: key)
  }

  private var rowName: String? { session.focusedRow?.name }

  @Test func arrowsJKPagesHomeAndEnd() {
    press(.down, .character("j"))
    #expect(session.state.rowIndex == 2)
    press(.character("k"), .up, .up)
    #expect(session.state.rowIndex == 0)
    press(.pageDown)
    #expect(session.state.rowIndex == 5)
    press(.pageUp, .pageUp)
    #expect(session.state.rowIndex == 0)
    press(.end)
    #expect(rowName == "proxy")
    press(.home)
    #expect(rowName == "mood")
    press(.character("G"))
    #expect(rowName == "proxy")
    press(.character("g"))
    #expect(rowName == "mood")
  }

  @Test func tabAndArrowsSwitchPanesAndObjects() {
    press(.down, .down, .tab)
    #expect(session.state.pane == .objects)
    press(.down)
    #expect(session.state.sourceIndex == 1)
    #expect(session.state.rowIndex == 0)
    press(.enter)
    #expect(session.state.pane == .rows)
    press(.left)
    #expect(session.state.pane == .objects, "← on a text row goes to the objects pane")
    press(.right)
    #expect(session.state.pane == .rows)
  }

  @Test func dResetsToTheDefaultAndRemovesTheStoredValue() throws {
    press(.character(" "))
    #expect(types.mood == .busy)
    #expect(stored("mood") as? String == "busy")
    press(.character("d"))
    #expect(types.mood == .calm)
    #expect(stored("mood") == nil, "the stored value is removed, not set to the default")
    #expect(session.state.message?.text == "Reset mood to its default calm")
    press(.character(" "), .delete)
    #expect(stored("mood") == nil, "Delete is d's twin")
  }

  @Test func capitalDResetsTheObjectAndUUndoesItAllAtOnce() {
    press(.character(" "))
    press(.down, .down, .enter)
    type("9")
    press(.enter)
    #expect(types.volume == 59)
    press(.character("D"))
    #expect(types.volume == 59, "D asks first")
    #expect(
      session.state.message?.text
        == "Reset 2 value(s) of EditorTypeSettings to their defaults? y resets (u undoes), any "
        + "other key keeps them")
    press(.character("n"))
    #expect(types.volume == 59 && session.state.message?.text == "Nothing changed")
    press(.character("D"), .character("y"))
    #expect(types.mood == .calm && types.volume == 5)
    #expect(stored("mood") == nil && stored("volume") == nil)
    #expect(session.state.message?.text.hasPrefix("Reset 2 value(s) of EditorTypeSettings") == true)
    press(.character("u"))
    #expect(types.mood == .busy && types.volume == 59)
  }

  @Test func uUndoesEditsOneByOneThenSaysNothingIsLeft() {
    press(.character(" "), .character(" "))
    #expect(types.mood == .away)
    press(.character("u"))
    #expect(types.mood == .busy)
    press(.character("u"))
    #expect(types.mood == .calm)
    #expect(stored("mood") == nil, "undoing back to the default removes the stored value")
    press(.character("u"))
    #expect(session.state.message?.text == "Nothing to undo")
  }

  @Test func slashSearchesNamesAndDescriptionsAcrossObjectsWithNAndCapitalN() {
    press(.character("/"))
    type("script")  // only in greeting's description
    #expect(rowName == "greeting")
    press(.enter)
    #expect(session.state.mode == .browsing)
    press(.character("/"))
    type("name")  // ProfileSettings.name and .nickname
    press(.enter)
    #expect(session.state.sourceIndex == 1)
    #expect(rowName == "name")
    press(.character("n"))
    #expect(rowName == "nickname")
    press(.character("n"))
    #expect(rowName == "name", "wraps")
    press(.character("N"))
    #expect(rowName == "nickname")
    #expect(session.state.message?.text == "Match 2 of 2 for \"name\"")
  }

  @Test func escapeLeavesTheSearchWhereItStarted() {
    press(.down, .character("/"))
    type("greet")
    #expect(rowName == "greeting")
    press(.escape)
    #expect(rowName == "interval")
  }

  @Test func mListsModifiedRowsOnly() {
    press(.character(" "), .end)
    press(.enter)
    type("https://a.example")
    press(.enter)
    press(.character("m"))
    #expect(
      session.listedRows().map { session.currentSource!.row(at: $0).name } == ["mood", "proxy"])
    press(.up)
    #expect(rowName == "mood", "moves over the listed rows only")
    press(.character("m"))
    #expect(session.listedRows().count == session.currentSource!.rowCount)
  }

  @Test func mHidesTheFocusedRowWhenItIsNotModified() {
    press(.character(" "), .end)  // mood: busy
    press(.enter)
    type("https://a.example")
    press(.enter)  // proxy set
    press(.home, .down, .down, .down)
    #expect(rowName == "ratio")
    press(.character("m"))
    #expect(
      session.listedRows().map { session.currentSource!.row(at: $0).name } == ["mood", "proxy"])
    #expect(rowName == "mood", "the focus moves to the nearest listed row")
  }

  @Test func underMAResetRowLeavesTheListAndTheFocusMovesOn() {
    press(.character(" "), .end)
    press(.enter)
    type("https://a.example")
    press(.enter)
    press(.character("m"))
    let canvas = MemoryCanvas(rows: 12, columns: 80)
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    #expect(rowName == "proxy")
    screen.draw(session.handle(.character("d")))
    #expect(rowName == "mood")
    #expect(canvas.line(2).contains("* mood"))
    #expect(!canvas.line(3).contains("proxy"))
  }

  @Test func questionMarkShowsHelpAndAnyKeyClosesIt() {
    press(.character("?"))
    #expect(session.state.mode == .overlay(.help))
    press(.character("x"))
    #expect(session.state.mode == .browsing)
    #expect(types.mood == .calm)
    press(.other(265))  // F1
    #expect(session.state.mode == .overlay(.help))
    press(.escape, .character("i"))
    #expect(session.state.mode == .overlay(.details))
  }

  @Test func aCloudObjectIsMarkedWithItsSyncState() {
    let cloud = SettingsObjectRows(AnySettings(SyncSettings()))
    #expect(cloud.kind == .cloud)
    #expect(cloud.state == "synced")
    #expect(cloud.location == "cloud key-value store")
    #expect(cloud.row(at: 0).key == "sync_displayName")
  }

  @Test func readOnlyRefusesEveryChange() {
    let readOnly = EditorSession(
      sources: [SettingsObjectRows(AnySettings(types))], isReadOnly: true)
    for key: KeyPress in [.character(" "), .right, .character("d"), .character("D"), .enter] {
      _ = readOnly.handle(key)
      #expect(readOnly.state.message?.isError == true)
    }
    #expect(types.mood == .calm)
    #expect(stored("mood") == nil)
  }

  @Test func qQuits() {
    press(.character("q"))
    #expect(session.state.isFinished)
  }

  /// Issue 13, bug 8: with `--readonly` the key bar still offered `Enter edit  d default  u undo`.
  @Test func theReadOnlyKeyBarOffersNoChange() {
    let hints = KeyMap.browseHints(
      for: .text(TextValueFormat(base: .string), text: "x"), readOnly: true)
    #expect(hints == ["↑↓ move", "Tab pane", "/ find", "? help", "q quit"])
    #expect(
      KeyMap.browseHints(for: .toggle(true), readOnly: true).contains("Space toggle") == false)
  }
}

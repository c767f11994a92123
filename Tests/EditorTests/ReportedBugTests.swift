import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import Testing

@testable import SettingsEditor

/// Bugs a new user reported (issue 13), each reproduced headless as reported.
@MainActor
@Suite struct ReportedBugTests {
  /// Bug 5: a nested edit in a raw suite marked the parent row `~` ("another process changed it").
  @Test func aNestedEditDoesNotMarkItsContainerAsChangedElsewhere() throws {
    let (suite, writer) = try TestPreferences.suite(["prefs": ["theme": "dark"]])
    let domain = PropertyListDomain(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let (canvas, session, screen) = TestScreen.show(domain, rows: 10)
    for key: KeyPress in [.enter, .down, .enter, .character("\u{15}")] {
      screen.draw(session.handle(key))
    }
    for character in "light" { screen.draw(session.handle(.character(character))) }
    screen.draw(session.handle(.enter))
    #expect((writer.persistentValue(forKey: "prefs") as? [String: String])?["theme"] == "light")
    #expect(canvas.line(2).contains("│  prefs ▾"), "not ~: this session wrote it")
    #expect(canvas.line(3).contains("│    theme") && canvas.line(3).hasSuffix("light"))
  }

  /// Bug 7: Space on an `@ObservableOnly` property said "Saved" though nothing is stored.
  @Test func anObservableOnlyToggleSaysItIsNotStored() {
    let suite = TestPreferences.uniqueSuite()
    let rows = SettingsObjectRows(
      AnySettings(LookSettings(userDefaults: TestPreferences.writer(ofSuite: suite))))
    let (_, session, _) = TestScreen.show(rows, rows: 10)
    for key: KeyPress in [.down, .down, .down, .character(" ")] { _ = session.handle(key) }
    #expect(
      session.state.message?.text == "Set isPreviewing = true (@ObservableOnly: not stored)")
  }

  /// Bug 8: with `--readonly` the key bar still offered `Enter edit  d default  u undo`.
  @Test func theReadOnlyKeyBarOffersNoChange() {
    let hints = KeyMap.browseHints(
      for: .text(TextValueFormat(base: .string), text: "x"), readOnly: true)
    #expect(hints == ["↑↓ move", "Tab pane", "/ find", "? help", "q quit"])
    #expect(KeyMap.browseHints(for: .toggle(true), readOnly: true).contains("Space toggle") == false)
  }
}

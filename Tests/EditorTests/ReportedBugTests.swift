import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import TestSupport
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
    #expect(
      KeyMap.browseHints(for: .toggle(true), readOnly: true).contains("Space toggle") == false)
  }

  /// Bug 6: a stored value that does not decode showed the default with no mark; `i` showed the
  /// default too. Now: `!`, the reason on the context line and in `i`, and `d` removes it.
  @Test func anUndecodableStoredValueIsMarkedExplainedAndRemovedByD() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write("hello", forKey: "volume")
    let settings = EditorTypeSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    let rows = SettingsObjectRows(AnySettings(settings))
    let (canvas, session, screen) = TestScreen.show(rows, rows: 24)
    for _ in 0..<2 { screen.draw(session.handle(.down)) }
    #expect(canvas.line(4).contains("│! volume") && canvas.line(4).contains("Int8"))
    #expect(canvas.line(4).hasSuffix("5"), "the default is what the program reads")
    #expect(
      canvas.line(22)
        == #" volume: stored "hello" (String) does not decode as Int8; d removes it"#)
    screen.draw(session.handle(.character("i")))
    #expect(canvas.lines.contains { $0.contains(#"Problem  stored "hello" (String) does not"#) })
    screen.draw(session.handle(.escape))
    screen.draw(session.handle(.character("d")))
    #expect(writer.persistentValue(forKey: "volume") == nil)
    #expect(canvas.line(4).contains("│  volume"))
  }

  /// Bug 18: the library's diagnostics show on the status line while the editor owns the
  /// screen (the editor routes `Diagnostics.handler` to ``EditorSession/show(_:)``).
  @Test func aDiagnosticShowsOnTheStatusLine() {
    let (canvas, session, screen) = TestScreen.show(SampleRowSource(SampleObject()), rows: 10)
    session.show(
      Diagnostic(subsystem: "PropertyListDefaults", message: "x.plist could not be written"))
    screen.draw(Damage())
    #expect(canvas.line(8) == " PropertyListDefaults: x.plist could not be written")
  }

  /// The header names the program that shows the editor (`myapp settings`).
  @Test func theHeaderNamesTheEmbeddingProgram() {
    let (canvas, session, screen) = TestScreen.show(SampleRowSource(SampleObject()), rows: 10)
    session.programName = "myapp"
    screen.draw(Damage(layout: true))
    #expect(canvas.line(0).hasPrefix(" myapp  Sample"))
  }

  /// Bug 14: error and status lines were cut at the screen width, and could not be read while
  /// editing. A long message now wraps over the lines above; they are drawn again when it goes.
  @Test func aLongMessageWrapsAboveTheFieldAndGoesAway() {
    let suite = TestPreferences.uniqueSuite()
    let rows = SettingsObjectRows(
      AnySettings(ProfileSettings(userDefaults: TestPreferences.writer(ofSuite: suite))))
    let (canvas, session, screen) = TestScreen.show(rows, rows: 10, columns: 50)
    for key: KeyPress in [.down, .enter, .character("x"), .enter] {
      screen.draw(session.handle(key))
    }
    #expect(canvas.line(6) == " age (Int) not changed: not a whole number (Int")
    #expect(canvas.line(7) == #"expected): "20x""#)
    #expect(canvas.line(8).hasPrefix(" age (Int): 20x"))
    #expect(canvas.line(9).hasPrefix(" Enter save"))
    screen.draw(session.handle(.escape))
    #expect(canvas.line(6).hasSuffix("│"), "the rows pane under the message is drawn again")
    #expect(canvas.line(7).hasSuffix("│"))
  }
}

/// A raw-value enumeration that is not `CaseIterable`: the schema cannot list its cases.
enum PaneLayout: String { case grid, list, columns }

@ObservableDefaults
final class LayoutSettings {
  var layout: PaneLayout = .grid
}

@MainActor
@Suite struct EnumPickerTests {
  /// A non-`CaseIterable` enumeration showed `"grid"` with quotes and had to be typed as JSON.
  @Test func aRawValueIsShownAndTypedBare() {
    let settings = LayoutSettings(
      userDefaults: TestPreferences.writer(ofSuite: TestPreferences.uniqueSuite()))
    let (canvas, session, screen) = TestScreen.show(
      SettingsObjectRows(AnySettings(settings)), rows: 8)
    #expect(canvas.line(2).hasSuffix("layout  PaneLayout  grid"))
    screen.draw(session.handle(.enter))
    #expect(canvas.line(6) == " layout (PaneLayout, raw value): grid")
    for key: KeyPress in [
      .character("\u{15}"), .character("l"), .character("i"), .character("s"),
      .character("t"), .enter,
    ] {
      screen.draw(session.handle(key))
    }
    #expect(settings.layout == .list)
    #expect(canvas.line(2).hasSuffix("layout  PaneLayout  list"))
    screen.draw(session.handle(.enter))
    for key: KeyPress in [.character("\u{15}"), .character("x"), .enter] {
      screen.draw(session.handle(key))
    }
    #expect(settings.layout == .list, "not a case: refused")
    #expect(session.state.message?.isError == true)
  }
}

import ObservableDefaults
import Testing

@testable import SettingsEditor

/// A raw-value enumeration that is not `CaseIterable`: the schema cannot list its cases.
enum PaneLayout: String { case grid, list, columns }

@ObservableDefaults
final class LayoutSettings {
  var layout: PaneLayout = .grid
}

/// A raw-value enumeration that is not `CaseIterable` in the editor (from the reports of issue 13).
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

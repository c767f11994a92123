import ObservableDefaults
import ObservableDefaultsCore
import Testing

@testable import SettingsEditor

@MainActor
@Suite struct EditorScreenTests {
  private let object = SampleObject()
  private let canvas = MemoryCanvas(rows: 10, columns: 72)
  private let session: EditorSession
  private let screen: EditorScreen
  private let clock = TestClock()

  init() {
    session = EditorSession(sources: [SampleRowSource(object)])
    let clock = clock
    screen = EditorScreen(
      canvas: canvas, session: session, glyphs: .unicode, wake: {}, now: { clock.now })
    screen.draw(Damage(layout: true))
  }

  @Test func drawsOneRowPerPropertyWithKeyTypeAndValue() {
    #expect(canvas.line(0).hasPrefix(" settings-editor  Sample  memory"))
    #expect(canvas.line(0).hasSuffix("[object, LIVE]"))
    #expect(canvas.line(1).contains("Name       Key       Type    Value"))
    #expect(canvas.line(2) == "▸ Sample    │  name       name      String  Fatbobman")
    #expect(canvas.line(3) == "            │  age        user-age  Int     20")
    #expect(canvas.line(4) == "            │  isEnabled  -         Bool    false")
    #expect(canvas.line(8).hasPrefix(" name · default: Fatbobman"))
    #expect(canvas.line(9).hasPrefix(" ↑↓ move  Tab pane  Enter edit"))
  }

  @Test func aChangedValueRedrawsOnlyItsRow() {
    _ = session.handle(.character("c"))
    screen.draw(Damage(layout: true))
    object.age = 42
    screen.draw(Damage())
    #expect(canvas.line(3).contains("age        user-age  Int     42"))
    #expect(canvas.line(3).hasSuffix("↻1"))
    #expect(canvas.line(2).hasSuffix("↻0"))
    #expect(canvas.line(4).hasSuffix("↻0"))
    #expect(screen.redrawCount(source: 0, row: 1) == 1)
    #expect(screen.redrawCount(source: 0, row: 0) == 0)
    object.age = 43
    screen.draw(Damage())
    #expect(screen.redrawCount(source: 0, row: 1) == 2)
  }

  @Test func aValueChangedElsewhereIsMarkedForAMomentThenShownAsModified() {
    object.name = "Bob"
    screen.draw(Damage())
    #expect(canvas.line(2).contains("~ name"))
    #expect(canvas.style(row: 2, column: 14).contains(.changed))
    #expect(screen.nextDeadline == clock.now + ChangeMarks.duration)
    clock.now += ChangeMarks.duration
    screen.draw(Damage())
    #expect(canvas.line(2).contains("* name"))
    #expect(canvas.style(row: 2, column: 14).contains(.bold))
    #expect(!canvas.style(row: 2, column: 14).contains(.changed))
    #expect(!canvas.style(row: 3, column: 14).contains(.bold))
    #expect(screen.redrawCount(source: 0, row: 0) == 1, "the mark's end is not a value redraw")
    #expect(screen.nextDeadline == nil)
  }

  @Test func theFocusedRowIsReversed() {
    #expect(canvas.style(row: 2, column: 14).contains(.reverse))
    screen.draw(session.handle(.down))
    #expect(!canvas.style(row: 2, column: 14).contains(.reverse))
    #expect(canvas.style(row: 3, column: 14).contains(.reverse))
    #expect(screen.redrawCount(source: 0, row: 1) == 0)
  }

  @Test func theEditFieldShowsThePromptAndRefusal() {
    for key: KeyPress in [.down, .enter, .character("x"), .enter] {
      screen.draw(session.handle(key))
    }
    #expect(canvas.line(8) == " age (Int): 20x")
    #expect(canvas.cursor?.row == 8)
    #expect(canvas.line(7) == #" age (Int) not changed: not a whole number (Int expected): "20x""#)
    #expect(canvas.line(9).hasPrefix(" Enter save"))
    #expect(object.age == 20)
  }

  @Test func resizeRelaysOutAndTooSmallSaysSo() {
    canvas.resize(rows: 6, columns: 30)
    screen.draw(session.handle(.resize))
    #expect(canvas.line(0) == "Terminal too small: need 40x8")
    canvas.resize(rows: 12, columns: 60)
    screen.draw(session.handle(.resize))
    #expect(canvas.line(2).contains("name"))
    #expect(canvas.line(11).hasPrefix(" ↑↓ move"))
  }

  /// Issue 13, bug 18: the library's diagnostics show on the status line while the editor owns the
  /// screen (the editor routes `Diagnostics.handler` to ``EditorSession/show(_:)``).
  @Test func aDiagnosticShowsOnTheStatusLine() {
    let (canvas, session, screen) = TestScreen.show(SampleRowSource(SampleObject()), rows: 10)
    session.show(
      Diagnostic(subsystem: "PropertyListDefaults", message: "x.plist could not be written"))
    screen.draw(Damage())
    #expect(canvas.line(8) == " PropertyListDefaults: x.plist could not be written")
  }

  /// Issue 13 (a new user's report): the header names the program that shows the editor
  /// (`myapp settings`).
  @Test func theHeaderNamesTheEmbeddingProgram() {
    let (canvas, session, screen) = TestScreen.show(SampleRowSource(SampleObject()), rows: 10)
    session.programName = "myapp"
    screen.draw(Damage(layout: true))
    #expect(canvas.line(0).hasPrefix(" myapp  Sample"))
  }

  /// Issue 13, bug 14: error and status lines were cut at the screen width, and could not be read
  /// while editing. A long message now wraps over the lines above; they are drawn again when it
  /// goes.
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

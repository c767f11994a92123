import CNcursesW
import Testing

@testable import SettingsEditor

/// The real ncurses backend, headless: curses draws into /dev/null and the test reads its
/// virtual screen back. Serialized because curses state is global.
@MainActor
@Suite(.serialized) struct NcursesCanvasTests {
  @Test func drawsRowsAndRedrawsAChangedOne() throws {
    let canvas = try #require(NcursesCanvas(headless: "xterm"), "terminfo for xterm is missing")
    defer { canvas.end() }
    let object = SampleObject()
    let session = EditorSession(sources: [SampleRowSource(object)])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    #expect(canvas.line(0).hasPrefix(" settings-editor  Sample  memory"))
    #expect(canvas.line(2) == "▸ Sample    │  name       name      String  Fatbobman")
    #expect(canvas.line(3) == "            │  age        user-age  Int     20")

    object.name = "日本語"
    screen.draw(Damage())
    #expect(canvas.line(2) == "▸ Sample    │~ name       name      String  日本語")
    #expect(screen.redrawCount(source: 0, row: 0) == 1)
    #expect(screen.redrawCount(source: 0, row: 1) == 0)
  }

  @Test func decodesKeysFromCurses() throws {
    let canvas = try #require(NcursesCanvas(headless: "xterm"), "terminfo for xterm is missing")
    defer { canvas.end() }
    #expect(canvas.pendingKeys() == [])
    for (code, key) in [
      (KEY_DOWN, KeyPress.down), (KEY_RESIZE, .resize), (KEY_BACKSPACE, .backspace),
    ] {
      ungetch(code)
      #expect(canvas.pendingKeys() == [key])
    }
    for (character, key) in [
      (0x71, KeyPress.character("q")), (0xE9, .character("é")), (13, .enter), (27, .escape),
      (127, .backspace),
    ] {
      unget_wch(wchar_t(character))
      #expect(canvas.pendingKeys() == [key])
    }
  }
}

import Foundation
import Testing

@testable import SettingsEditor

/// What reaches the terminal: no raw control characters from values, colour only when allowed,
/// and a layout that follows the size.
@MainActor
@Suite(.serialized) struct TerminalHygieneTests {
  @Test func escapeSequencesInValuesAreShownEscaped() {
    let object = SampleObject()
    object.name = "\u{1B}[31mred\u{07}\u{9B}2J\nnext"
    let canvas = MemoryCanvas(rows: 10, columns: 80)
    let screen = EditorScreen(
      canvas: canvas, session: EditorSession(sources: [SampleRowSource(object)]),
      glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    #expect(canvas.line(2).hasSuffix(#"\u{1b}[31mred\u{7}\u{9b}2J\nnext"#))
    #expect(
      canvas.lines.allSatisfy { line in
        line.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
      })
  }

  @Test func cursesGetsOnlyEscapedText() throws {
    let canvas = try #require(NcursesCanvas(headless: "xterm"), "terminfo for xterm is missing")
    defer { canvas.end() }
    canvas.put("a\u{1B}]0;title\u{07}b", row: 0, column: 0, style: [])
    #expect(canvas.line(0) == #"a\u{1b}]0;title\u{7}b"#)
  }

  @Test func noColorAndColorNeverTurnColourOff() {
    #expect(ColorChoice.auto.usesColor(environment: [:]))
    #expect(!ColorChoice.auto.usesColor(environment: ["NO_COLOR": "1"]))
    #expect(ColorChoice.auto.usesColor(environment: ["NO_COLOR": ""]), "empty means unset")
    #expect(!ColorChoice.never.usesColor(environment: [:]))
    #expect(ColorChoice.always.usesColor(environment: ["NO_COLOR": "1"]))
  }

  @Test func withoutColourRolesAddNoColourPair() throws {
    let canvas = try #require(NcursesCanvas(headless: "xterm-256color", color: false))
    defer { canvas.end() }
    #expect(!canvas.usesColor)
    #expect(canvas.attributes([.bold, .alert]) == canvas.attributes(.bold))
  }

  @Test func withColourRolesAddTheirPair() throws {
    let canvas = try #require(NcursesCanvas(headless: "xterm-256color", color: true))
    defer { canvas.end() }
    #expect(canvas.usesColor)
    #expect(canvas.attributes([.bold, .alert]) != canvas.attributes(.bold))
  }

  @Test func resizeKeepsTheFocusedRowVisible() {
    let settings = SampleObject()
    let canvas = MemoryCanvas(rows: 10, columns: 72)
    let session = EditorSession(sources: [SampleRowSource(settings)])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    screen.draw(session.handle(.end))
    canvas.resize(rows: 8, columns: 60)
    screen.draw(session.handle(.resize))
    #expect(canvas.lines.contains { $0.contains("isEnabled") })
    let line = canvas.lines.firstIndex { $0.contains("isEnabled") } ?? 0
    #expect(canvas.style(row: line, column: 14).contains(.reverse))
    #expect(canvas.line(7).hasPrefix(" ↑↓ move"))
  }
}

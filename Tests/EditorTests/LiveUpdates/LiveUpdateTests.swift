import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// Changes made elsewhere while the editor shows a source: rows update in place, one redraw per
/// changed key, the cursor stays, the selection follows its key, a draft being typed is kept.
@MainActor
@Suite struct LiveUpdateTests {
  private let suite = TestPreferences.uniqueSuite()

  /// A 24-line screen showing `source`, drawn once.
  private func show(_ source: any RowSource) -> (MemoryCanvas, EditorSession, EditorScreen) {
    let canvas = MemoryCanvas(rows: 24, columns: 80)
    let session = EditorSession(sources: [source])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    return (canvas, session, screen)
  }

  private func showSettings() -> (EditorTypeSettings, MemoryCanvas, EditorSession, EditorScreen) {
    let settings = EditorTypeSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    let (canvas, session, screen) = show(SettingsObjectRows(AnySettings(settings)))
    return (settings, canvas, session, screen)
  }

  @Test func twoKeysWrittenElsewhereRedrawTwoRowsAndTheCursorStays() throws {
    let (_, canvas, session, screen) = showSettings()
    screen.draw(session.handle(.down))
    let other = TestPreferences.writer(ofSuite: suite)  // another store object on the file
    try other.write("busy", forKey: "mood")
    try other.write(9, forKey: "volume")
    try other.write(9, forKey: "volume")  // the same value again: no redraw
    screen.draw(Damage())
    let counts = (0..<14).map { screen.redrawCount(source: 0, row: $0) }
    #expect(counts == [1, 0, 1] + Array(repeating: 0, count: 11))
    #expect(session.state.rowIndex == 1, "the cursor did not move")
    #expect(canvas.line(2).contains("~ mood") && canvas.line(2).hasSuffix("busy"))
    #expect(canvas.line(4).contains("~ volume") && canvas.line(4).hasSuffix("9"))
    #expect(canvas.line(3).contains("  interval"), "the focused row is not marked")
  }

  @Test func aDraftBeingTypedIsKeptWhenItsRowChangesElsewhere() throws {
    let (settings, canvas, session, screen) = showSettings()
    for key: KeyPress in [.down, .down, .enter, .character("7")] {
      screen.draw(session.handle(key))
    }
    try TestPreferences.writer(ofSuite: suite).write(-3, forKey: "volume")
    screen.draw(Damage())
    #expect(canvas.line(22) == " volume (Int8): 57", "the draft stays")
    #expect(
      canvas.line(21) == " Changed elsewhere: -3 (Enter: keep yours or take theirs)", "above it")
    #expect(canvas.line(4).hasSuffix("-3"), "the row shows the other value")
    screen.draw(session.handle(.enter))
    #expect(settings.volume == -3, "the first Enter asks, it does not overwrite")
    #expect(canvas.line(21) == " Changed elsewhere to -3: Enter keeps yours, Esc takes theirs")
    screen.draw(session.handle(.enter))
    #expect(settings.volume == 57)
  }

  @Test func escapeAfterAChangeElsewhereTakesTheirValue() throws {
    let (settings, canvas, session, screen) = showSettings()
    for key: KeyPress in [.down, .down, .enter, .character("7")] {
      screen.draw(session.handle(key))
    }
    try TestPreferences.writer(ofSuite: suite).write(-3, forKey: "volume")
    screen.draw(Damage())
    screen.draw(session.handle(.enter))
    screen.draw(session.handle(.escape))
    #expect(settings.volume == -3)
    #expect(canvas.line(4).hasSuffix("-3"))
  }

  @Test func keysAddedOrRemovedElsewhereKeepTheSelection() throws {
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write("b", forKey: "b")
    try writer.write("c", forKey: "c")
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    domain.startWatching { job in MainActor.assumeIsolated { job() } }
    let (canvas, session, screen) = show(domain)
    screen.draw(session.handle(.down))
    #expect(session.focusedRow?.name == "c")
    try writer.write("a", forKey: "a")
    screen.draw(Damage())
    #expect(domain.rowCount == 3)
    #expect(session.focusedRow?.name == "c", "the selection follows its key")
    #expect(canvas.line(4).hasSuffix("│  c     String  c"))
    #expect(canvas.style(row: 4, column: 24).contains(.reverse))
    try writer.write(nil, forKey: "a")
    try writer.write(nil, forKey: "b")
    screen.draw(Damage())
    #expect(session.focusedRow?.name == "c")
    try writer.write(nil, forKey: "c")
    screen.draw(Damage())
    #expect(session.state.rowIndex == 0, "a removed selection falls back to a row that exists")
  }
}

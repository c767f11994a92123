import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// The main screens at 80×24 in the in-memory canvas, compared with the golden captures in
/// `Snapshots/` (README-screens.md shows them).
@MainActor
@Suite(.serialized) struct ScreenCaptureTests {
  /// A folder of this test's own (a previous test's late writes cannot reach it); the header
  /// cuts paths in the middle, so its unique part never shows (see ``shown(_:)``).
  private let captures: TemporaryFolder

  private let types: EditorTypeSettings
  private let session: EditorSession
  private let canvas = MemoryCanvas(rows: 24, columns: 80)
  private let clock = TestClock()
  private let screen: EditorScreen

  init() throws {
    captures = try TemporaryFolder(prefix: "settings-editor-captures")
    let folder = captures.url
    let store = { (suite: String) in
      PropertyListDefaults(fileURL: folder.appendingPathComponent(suite + ".plist"))
    }
    types = EditorTypeSettings(userDefaults: store("com.example.types"))
    let profile = ProfileSettings(userDefaults: store("com.example.profile"))
    session = EditorSession(sources: [
      SettingsObjectRows(AnySettings(types)), SettingsObjectRows(AnySettings(profile)),
      SettingsObjectRows(AnySettings(SyncSettings())),
    ])
    let clock = clock
    screen = EditorScreen(
      canvas: canvas, session: session, glyphs: .unicode, wake: {}, now: { clock.now })
    screen.draw(Damage(layout: true))
  }

  /// `lines` with the start of the captures' folder shown as in the golden captures, which were
  /// taken with the temporary folder `/tmp` (`TMPDIR` unset): the header cuts the folder's path
  /// in the middle, keeping a start that `TMPDIR` decides.
  private func shown(_ lines: [String]) -> [String] {
    let path = captures.url.path
    let recorded = "/tmp/" + captures.url.lastPathComponent
    return lines.map { line in
      let start = (1...path.count).reversed().lazy.map { String(path.prefix($0)) }
        .first { line.contains($0 + "…") || line.contains($0 + "...") }
      guard let start else { return line }
      return line.replacingOccurrences(of: start, with: String(recorded.prefix(start.count)))
    }
  }

  private func press(_ keys: KeyPress...) {
    for key in keys {
      var damage = session.handle(key)
      damage.formUnion(session.continueSearch(for: .seconds(3600)))
      screen.draw(damage)
    }
  }

  private func type(_ text: String) {
    for character in text { press(.character(character)) }
  }

  @Test func main() {
    assertSnapshot(shown(canvas.lines), named: "main")
    #expect(canvas.style(row: 2, column: 22).contains(.reverse), "the focused row")
  }

  @Test func enumRowAfterACycle() {
    press(.right)
    assertSnapshot(shown(canvas.lines), named: "enum-cycled")
  }

  @Test func editingJSON() {
    for _ in 0..<9 { press(.down) }
    press(.enter)
    assertSnapshot(shown(canvas.lines), named: "editing-json")
    #expect(canvas.cursor?.row == 22)
  }

  @Test func refusedInput() {
    press(.down, .down, .enter)
    type("00")
    press(.enter)
    assertSnapshot(shown(canvas.lines), named: "refused")
  }

  @Test func search() {
    press(.character("/"))
    type("nick")
    assertSnapshot(shown(canvas.lines), named: "search")
  }

  @Test func help() {
    press(.character("?"))
    assertSnapshot(shown(canvas.lines), named: "help")
  }

  @Test func detailsOfALongValue() {
    press(.end)
    press(.enter)
    type("https://example.com/a/rather/long/path/that/does/not/fit/in/the/value/column/at/all")
    press(.enter)
    press(.character("i"))
    assertSnapshot(shown(canvas.lines), named: "details")
  }

  @Test func modifiedOnly() {
    press(.right, .down, .down, .enter)
    type("0")
    press(.enter, .character("m"))
    assertSnapshot(shown(canvas.lines), named: "modified-only")
  }

  @Test func changedElsewhereWithRedrawCounters() throws {
    press(.character("c"))
    types.volume = 42  // as a write from another process arrives: through the object
    screen.draw(Damage())
    assertSnapshot(shown(canvas.lines), named: "changed-elsewhere")
    #expect((0..<14).map { screen.redrawCount(source: 0, row: $0) }.reduce(0, +) == 1)
  }

  @Test func ownChangesAreNotMarkedAsChangedElsewhere() {
    press(.right, .down, .down, .enter)
    type("0")
    press(.enter)
    press(.character("D"), .character("y"))
    #expect(!canvas.lines.contains { $0.contains("│~") })
    press(.character("u"))
    #expect(!canvas.lines.contains { $0.contains("│~") })
    #expect(canvas.lines.filter { $0.contains("│*") }.count == 2)
  }

  @Test func cloudObject() {
    press(.tab, .end, .enter)
    assertSnapshot(shown(canvas.lines), named: "cloud")
  }

  @Test func asciiGlyphs() {
    let canvas = MemoryCanvas(rows: 24, columns: 80)
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .ascii, wake: {})
    screen.draw(Damage(layout: true))
    assertSnapshot(shown(canvas.lines), named: "ascii")
    #expect(canvas.lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
  }

  /// Bug 13: at 50 columns the value got 2 cells; it comes first now.
  @Test func narrowScreenGivesTheValuePriority() {
    canvas.resize(rows: 20, columns: 50)
    press(.resize)
    assertSnapshot(shown(canvas.lines), named: "narrow-50x20")
    #expect(canvas.lines[11].hasSuffix(#"Frame     {"height":600,…"#), "half the row at least")
  }

  /// Bug 6: a stored value that does not decode is marked `!` and explained.
  @Test func undecodableStoredValue() throws {
    let store = try #require(AnySettings(types).store.store as? PropertyListDefaults)
    try store.write("loud", forKey: "volume")
    press(.down, .down)
    assertSnapshot(shown(canvas.lines), named: "undecodable")
  }

  @Test func tooSmall() {
    canvas.resize(rows: 7, columns: 50)
    press(.resize)
    assertSnapshot(shown(canvas.lines), named: "too-small")
  }
}

import Foundation
import Testing

@testable import SettingsEditor

/// What the manual (`UsingTheEditor.md`) says about the screen, checked against the editor: each
/// sentence is quoted and the behaviour it describes is shown.
@MainActor
@Suite struct ManualClaimsTests {
  /// The manual as one line of text (its sentences wrap over lines).
  private static let manual: String = {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent("Screens/SettingsEditor.docc/UsingTheEditor.md")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }()

  @Test func onANarrowScreenTheColumnsKeepTheirOrderAndTheValueHalfTheRoom() {
    #expect(
      Self.manual.contains(
        "On a narrow screen the columns stay in their order, and the value keeps at least half of"
          + " the room"))
    let rows = [
      PropertyRow(
        name: "homepage", key: "homepage", typeName: "URL",
        value: "https://example.com/a/long/path", editing: .readOnly(""))
    ]
    let layout = ScreenLayout(
      size: TerminalSize(rows: 20, columns: 50), titles: ["EditorTypeSettings"], rows: rows,
      showsKeys: false, showsRedrawCounts: false)
    let room = layout.rowsWidth - 2 - 2 - 2
    #expect(layout.valueWidth * 2 >= room)
    #expect(layout.nameWidth + layout.typeWidth + layout.valueWidth == room)
  }

  @Test func aDateKeepsTheFractionAsFarAsADateHoldsIt() throws {
    #expect(Self.manual.contains("so `.123456789` becomes `.1234568`"))
    let format = TextValueFormat(base: .date)
    let date = try #require(try format.parse("2026-01-01T00:00:00.123456789Z") as? Date)
    #expect(PropertyListScalarType.text(of: date) == "2026-01-01T00:00:00.1234568Z")
  }

  @Test func aJoinedEmojiIsDrawnWithItsJoinersEscaped() {
    #expect(Self.manual.contains("is drawn as its emoji with each joiner shown escaped"))
    #expect(
      TextWidth.singleLine("👨\u{200D}👩\u{200D}👧") == "👨\\u{200d}👩\\u{200d}👧")
  }
}

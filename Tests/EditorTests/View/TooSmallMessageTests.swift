import Testing

@testable import SettingsEditor

/// Below the minimum size the editor says what it needs, whole, at any size.
@MainActor
@Suite struct TooSmallMessageTests {
  private func screenLines(rows: Int, columns: Int) -> [String] {
    TestScreen.show(SampleRowSource(), rows: rows, columns: columns).0.lines
  }

  @Test func atTwentyByFiveTheMessageWrapsWhole() {
    #expect(screenLines(rows: 5, columns: 20) == ["Terminal too small:", "need 40x8", "", "", ""])
  }

  @Test(arguments: [(8, 39), (7, 40)])
  func oneBelowTheMinimumShowsTheWholeMessage(rows: Int, columns: Int) {
    #expect(
      screenLines(rows: rows, columns: columns)
        == ["Terminal too small: need 40x8"] + Array(repeating: "", count: rows - 1))
  }

  @Test func narrowerTerminalsGetShorterFormsThatStillFit() {
    #expect(
      TooSmallMessage.lines(for: TerminalSize(rows: 1, columns: 20)) == ["Too small: need 40x8"])
    #expect(
      TooSmallMessage.lines(for: TerminalSize(rows: 4, columns: 8)) == [
        "Too", "small:", "need", "40x8",
      ])
    #expect(TooSmallMessage.lines(for: TerminalSize(rows: 2, columns: 4)) == ["40x8"])
    #expect(TooSmallMessage.lines(for: TerminalSize(rows: 1, columns: 3)) == ["40x"])
  }
}

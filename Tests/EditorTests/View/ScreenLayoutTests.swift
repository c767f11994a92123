import Testing

@testable import SettingsEditor

/// The row table's columns: the value first, and never wider than the rows pane.
@Suite struct ScreenLayoutTests {
  private static let rows = [
    PropertyRow(
      name: "windowFrameDescription", key: "sync_windowFrameDescription",
      typeName: "[String: Double]",
      value: #"{"height":600,"width":800,"x":12,"y":40}"#, editing: .readOnly("")),
    PropertyRow(
      name: "name", key: "sync_name", typeName: "String", value: "Fatbobman",
      editing: .readOnly("")),
  ]

  private func layout(columns: Int, counters: Bool) -> ScreenLayout {
    ScreenLayout(
      size: TerminalSize(rows: 24, columns: columns), titles: ["Settings", "CloudSettings ☁"],
      rows: Self.rows, showsKeys: true, showsRedrawCounts: counters)
  }

  /// Bug 2 (counters on at 80 columns wrapped the table into the objects pane) and every width
  /// from the minimum up: marker, columns, gaps and counter fit the rows pane.
  @Test(arguments: [false, true])
  func theTableNeverOverflowsThePane(counters: Bool) {
    for columns in ScreenLayout.minimumSize.columns...160 {
      let layout = layout(columns: columns, counters: counters)
      let used =
        2 + layout.nameWidth + 2 + (layout.keyWidth > 0 ? layout.keyWidth + 2 : 0)
        + layout.typeWidth + 2 + layout.valueWidth + layout.counterWidth
      #expect(used <= layout.rowsWidth, "\(columns) columns")
    }
  }

  /// Bug 13: at 80 columns the value was cut while the key had room; at 50 it got 2 cells.
  @Test func theValueGetsPriority() {
    let wide = layout(columns: 80, counters: false)
    #expect(wide.valueWidth >= (wide.rowsWidth - 8) / 2, "half the room at least")
    let narrow = layout(columns: 50, counters: false)
    #expect(narrow.valueWidth >= narrow.rowsWidth / 2 - 6)
    #expect(narrow.nameWidth >= 4 && narrow.typeWidth >= 4)
    let everything = layout(columns: 160, counters: true)
    #expect(everything.nameWidth == 22 && everything.keyWidth == 27 && everything.typeWidth == 16)
    #expect(everything.valueWidth >= 40)
  }
}

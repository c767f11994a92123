/// What can cover the rows pane: the key list (`?`) and the focused row in full (`i`), both a
/// table of labels and texts, long texts wrapped.
extension EditorScreen {
  /// The key list.
  func paintHelp() {
    paintTable(
      KeyMap.helpLines(
        editsKeys: session.currentSource is any KeyEditingRowSource))
  }

  /// The focused row: its whole value (wrapped, not cut), type, key, default, allowed values,
  /// description, and how it is edited.
  func paintDetails() {
    guard let row = session.focusedRow else { return }
    var lines = [("Name", row.name), ("Type", row.typeName)]
    if let key = row.key { lines.append(("Key", key)) }
    lines.append(("Value", row.value))
    if let problem = row.problem { lines.append(("Problem", problem + "; d removes it")) }
    if let migration = row.migration { lines.append(("Migration", migration)) }
    if let defaultValue = row.defaultValue { lines.append(("Default", defaultValue)) }
    if let allowed = row.editing.allowedValues {
      lines.append(("Allowed", allowed.joined(separator: ", ")))
    }
    if let summary = row.summary, !summary.allSatisfy(\.isWhitespace) {
      lines.append(("About", summary))
    }
    lines.append(("Editing", Self.howToEdit(row.editing)))
    paintTable(lines)
  }

  private static func howToEdit(_ editing: RowEditing) -> String {
    switch editing {
    case .toggle: "Space toggles it; Enter picks false or true"
    case .choice: "Space or ←→ picks the next or previous value; Enter picks from the list"
    case .text(let format, _): "Enter edits it (\(format.typeName)\(format.inputHint))"
    case .readOnly(let reason): "read-only: \(reason)"
    }
  }

  /// `lines` as a two-column table from the column-heading line down (one line more than the
  /// rows, so the key list fits in 24 lines); texts wrap under themselves.
  private func paintTable(_ lines: [(label: String, text: String)]) {
    guard let layout else { return }
    let labels = lines.map { glyphs.spelled($0.label) }
    let labelWidth = labels.map(TextWidth.columns).max() ?? 0
    let textWidth = max(1, layout.rowsWidth - labelWidth - 4)
    var screenLines: [String] = []
    for (label, line) in zip(labels, lines) {
      let padded = label + String(repeating: " ", count: labelWidth - TextWidth.columns(label))
      for (index, piece) in TextWidth.wrap(line.text, width: textWidth).enumerated() {
        let lead = index == 0 ? padded : String(repeating: " ", count: labelWidth)
        screenLines.append("  " + lead + "  " + piece)
      }
    }
    for (offset, text) in screenLines.prefix(layout.visibleCount + 1).enumerated() {
      canvas.put(
        TextWidth.fit(text, width: layout.rowsWidth, ellipsis: glyphs.ellipsis),
        row: layout.firstListLine - 1 + offset, column: layout.rowsColumn, style: [])
    }
  }
}

import ObservableDefaultsCore

/// The change log view (`L`): every change seen since the editor started, newest first, one
/// line each — time, object or suite, key, old → new, who made it — over the rows pane.
extension EditorScreen {
  func paintChangeLog() {
    guard let layout, case .changeLog(let selected, let key) = session.state.mode else { return }
    let entries = session.changeLogEntries(key: key)
    let heading =
      " Change log: \(entries.count) change\(entries.count == 1 ? "" : "s") seen, newest first"
      + (key.map { " · key \($0) (f: all keys)" } ?? " · f: the focused key only")
    canvas.put(
      TextWidth.fit(glyphs.spelled(heading), width: layout.rowsWidth, ellipsis: glyphs.ellipsis),
      row: layout.firstListLine - 1, column: layout.rowsColumn, style: .bold)
    guard !entries.isEmpty else {
      canvas.put(
        TextWidth.fit(
          "  (no change seen yet)", width: layout.rowsWidth, ellipsis: glyphs.ellipsis),
        row: layout.firstListLine, column: layout.rowsColumn, style: .dim)
      return
    }
    let visible = max(1, layout.visibleCount)
    let first = max(0, min(selected - visible / 2, entries.count - visible))
    for (offset, entry) in entries.dropFirst(first).prefix(visible).enumerated() {
      canvas.put(
        TextWidth.fit(
          glyphs.spelled(TextWidth.singleLine(Self.line(of: entry))), width: layout.rowsWidth,
          ellipsis: glyphs.ellipsis),
        row: layout.firstListLine + offset, column: layout.rowsColumn,
        style: first + offset == selected ? .reverse : [])
    }
  }

  /// `21:03:04  Settings  age: 1 → 2  by myapp (pid 4711)`.
  static func line(of entry: ChangeEntry) -> String {
    let change = entry.change
    return " \(ChangeHistory.clockTime(entry.time))  \(entry.sourceTitle)  \(change.key): "
      + "\(SeenChange.text(of: change.old)) → \(SeenChange.text(of: change.new))  by "
      + change.origin
  }

  /// The status line under the log: what the selected change did downstream.
  func changeLogStatus(selected: Int, key: String?) -> String {
    let entries = session.changeLogEntries(key: key)
    guard entries.indices.contains(selected) else { return " No change seen yet" }
    let entry = entries[selected]
    return " "
      + (entry.downstream?.text(key: entry.change.key) ?? "\(entry.change.key): not drawn yet")
  }
}

import Foundation

/// `/` search over every source's row names, keys and descriptions; n and N step through the
/// matches, switching objects as needed.
extension EditorSession {
  func startSearch() -> Damage {
    state.mode = .searching(field: LineEditor(text: ""), origin: state.focus)
    return Damage(rows: [state.rowIndex])
  }

  func handleSearching(_ key: KeyPress, field: inout LineEditor, origin: EditorState.Focus)
    -> Damage
  {
    let before = state.focus
    switch field.handle(key) {
    case .editing:
      state.mode = .searching(field: field, origin: origin)
      state.query = field.text
      let all = matches()
      jump(
        to: all.first { ($0.source, $0.row) >= (origin.source, origin.row) } ?? all.first,
        orStay: origin)
    case .commit:
      state.mode = .browsing
      let count = matches().count
      state.message = .init(
        text: count == 0
          ? "No match for \"\(state.query)\""
          : "\(count) match(es) for \"\(state.query)\"; n/N step",
        isError: count == 0)
    case .cancel:
      state.mode = .browsing
      state.focus = origin
    }
    return damage(from: before)
  }

  func stepMatch(forward: Bool) -> Damage {
    let before = state.focus
    let all = matches()
    guard !state.query.isEmpty, !all.isEmpty else {
      state.message = .init(
        text: state.query.isEmpty
          ? "No search yet: / starts one" : "No match for \"\(state.query)\"",
        isError: true)
      return Damage()
    }
    let isAfter = { (match: EditorState.Focus) in
      (match.source, match.row) > (before.source, before.row)
    }
    let next =
      forward
      ? all.first(where: isAfter) ?? all[0]
      : all.last(where: { !isAfter($0) && $0 != before }) ?? all[all.count - 1]
    jump(to: next, orStay: before)
    let position = (all.firstIndex(of: next) ?? 0) + 1
    state.message = .init(
      text: "Match \(position) of \(all.count) for \"\(state.query)\"", isError: false)
    return damage(from: before)
  }

  /// The rows whose name, key or description contain the query, ignoring case, in order.
  func matches() -> [EditorState.Focus] {
    guard !state.query.isEmpty else { return [] }
    return sources.indices.flatMap { sourceIndex in
      let source = sources[sourceIndex]
      return (0..<source.rowCount).compactMap { rowIndex -> EditorState.Focus? in
        let row = source.row(at: rowIndex)
        let texts = [row.name, row.key ?? "", row.summary ?? "", row.value]
        guard texts.contains(where: { $0.localizedCaseInsensitiveContains(state.query) }) else {
          return nil
        }
        return EditorState.Focus(source: sourceIndex, row: rowIndex)
      }
    }
  }

  private func jump(to match: EditorState.Focus?, orStay origin: EditorState.Focus) {
    state.focus = match ?? origin
    state.pane = .rows
  }

  private func damage(from before: EditorState.Focus) -> Damage {
    before.source == state.sourceIndex
      ? Damage(rows: [before.row, state.rowIndex]) : Damage(layout: true)
  }
}

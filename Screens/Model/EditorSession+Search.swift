import Foundation

/// `/` search over every source's row names, keys, descriptions and values; n and N step through
/// the matches, switching objects as needed.
///
/// The search runs off the input path: each key typed in the field starts a ``SearchRun`` (the
/// one before stops where it was) that the loop advances a slice at a time between keys
/// (``continueSearch(for:)``), the focus going to the first match as soon as it is found.
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
      if field.text != state.query {
        state.query = field.text
        beginSearch(from: origin)
      }
      jump(to: search?.firstMatch, orStay: origin)
    case .commit:
      state.mode = .browsing
      state.message = searchMessage()
    case .cancel:
      // The focus goes back; the search goes on for n and N, as it did before Esc.
      state.mode = .browsing
      searchMovesFocus = false
      state.focus = origin
    }
    return damage(from: before)
  }

  /// Whether a search is still looking through rows.
  var isSearching: Bool { search.map { !$0.isFinished } ?? false }

  /// Advances the running search for up to `budget`; the focus goes to its first match once it
  /// is found (while the query is typed, or after Enter kept it, until another key is pressed),
  /// and the status line says how it ended once it ends.
  func continueSearch(for budget: Duration) -> Damage {
    guard var run = search, !run.isFinished else { return Damage() }
    let deadline = ContinuousClock.now + budget
    let before = state.focus
    let lookedAt = run.rowsLookedAt
    let hadMatch = run.firstMatch != nil
    run.advance(over: sources) { ContinuousClock.now >= deadline }
    rowsSearched += run.rowsLookedAt - lookedAt
    search = run
    if searchMovesFocus, !hadMatch, let first = run.firstMatch {
      jump(to: first, orStay: before)
    }
    if run.isFinished, state.message?.text.hasPrefix(Self.searchingPrefix) == true {
      state.message = searchMessage()
    }
    // The status line, which counts the matches, is drawn with every frame.
    return before == state.focus ? Damage() : damage(from: before)
  }

  func stepMatch(forward: Bool) -> Damage {
    let before = state.focus
    let all = (search?.matches ?? []).filter {
      sources.indices.contains($0.source) && $0.row < sources[$0.source].rowCount
    }
    guard !state.query.isEmpty, !all.isEmpty else {
      state.message = .init(
        text: state.query.isEmpty
          ? "No search yet: / starts one"
          : isSearching
            ? "\(Self.searchingPrefix) no match yet" : "No match for \"\(state.query)\"",
        isError: !isSearching)
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
      text:
        "Match \(position) of \(all.count)\(isSearching ? " so far" : "") for \"\(state.query)\"",
      isError: false)
    return damage(from: before)
  }

  /// The rows whose name, key, description or value contain the query, ignoring case, in order,
  /// found by the running search so far.
  func matches() -> [EditorState.Focus] {
    search?.matches ?? []
  }

  /// The start of the status line while a kept search still looks through rows.
  static let searchingPrefix = "Searching…"

  /// Starts a search for the query from `origin`, stopping the one that runs where it is.
  private func beginSearch(from origin: EditorState.Focus) {
    if isSearching { searchesCancelled += 1 }
    searchMovesFocus = true
    search =
      state.query.isEmpty
      ? nil : SearchRun(pattern: SearchPattern(state.query), origin: origin)
  }

  /// What the status line says of the last search: how many matched, or that it still looks.
  private func searchMessage() -> EditorState.Message {
    let count = search?.matches.count ?? 0
    if isSearching {
      return .init(
        text: "\(Self.searchingPrefix) \(count) match(es) so far for \"\(state.query)\"",
        isError: false)
    }
    return .init(
      text: count == 0
        ? "No match for \"\(state.query)\""
        : "\(count) match(es) for \"\(state.query)\"; n/N step",
      isError: count == 0)
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

import ObservableDefaultsCore

/// The parts of the screen a key press made stale.
struct Damage: Equatable {
  /// Everything must be laid out and drawn again (new source, pane switch, resize).
  var layout = false
  /// Rows of the shown source to draw again (cursor moved), by index.
  var rows: Set<Int> = []
  /// The key put the focus on a row itself (undo brought a key back): keys that came and went
  /// do not move it back to the row focused before.
  var focusPlaced = false
  /// The objects pane lists other sources (the shown one and its rows are as they were).
  var objects = false

  /// Adds what `other` needs redrawn.
  mutating func formUnion(_ other: Damage) {
    layout = layout || other.layout
    rows.formUnion(other.rows)
    focusPlaced = focusPlaced || other.focusPlaced
    objects = objects || other.objects
  }
}

/// The editor's behaviour without any drawing: the sources, the state, and what each key does.
@MainActor
final class EditorSession {
  /// One change this session made, with what each touched row held before it.
  struct UndoStep {
    var label: String
    /// The source changed (by identity: sources come and go from the list).
    var source: ObjectIdentifier
    var rows: [(index: Int, snapshot: RowSnapshot)]
  }

  /// Everything the objects pane lists: objects, then suites by name, then files.
  private(set) var sources: [any RowSource]
  /// Opens text in the user's editor (`$VISUAL`, `$EDITOR`) and returns what it saved; nil when
  /// the editor could not run. The second argument is the file name extension (`json`, `txt`).
  var externalEditor: ((String, String) -> String?)?
  /// Finds sources to list that are not listed yet (suites created while the editor runs),
  /// ready to show; nil when the list is fixed.
  var discoverSources: (() -> [any RowSource])?
  /// When set, no key changes a value (`--readonly`).
  let isReadOnly: Bool
  /// The name in the header: the program that shows the editor.
  var programName = "settings-editor"
  var state = EditorState()
  /// Rows a page key moves by; the screen sets it from its layout.
  var pageSize = 10
  /// The changes to undo, last on top.
  var undoSteps: [UndoStep] = []
  /// The last search, running or finished (nil before the first, or after Esc).
  var search: SearchRun?
  /// How many rows searches looked at, in all (counted by the tests).
  var rowsSearched = 0
  /// Whether the running search puts the focus on its first match when it finds it: from the key
  /// that starts it until Esc or a key pressed after Enter (the user moved on).
  var searchMovesFocus = false
  /// How many searches stopped before their end because the next key replaced them.
  var searchesCancelled = 0
  /// Every change seen since the editor started (``ChangeLog``).
  var changeLog = ChangeLog()
  /// Where the changes seen in suites are kept on disk; nil: nowhere.
  var history: ChangeHistory? = ChangeHistory.user
  /// Storage key → how many observers were told of its changes, for the counters of `c`.
  var observersTold: [String: Int] = [:]
  /// Sources taken off the list while they hold no key (``unlist(_:after:)``), with the source
  /// each comes back after: undo lists one again to put a key of it back.
  private var unlisted: [ObjectIdentifier: (source: any RowSource, anchor: ObjectIdentifier)] = [:]

  init(sources: [any RowSource], isReadOnly: Bool = false) {
    self.sources = sources
    self.isReadOnly = isReadOnly
  }

  /// The source shown in the rows pane, if any.
  var currentSource: (any RowSource)? {
    sources.indices.contains(state.sourceIndex) ? sources[state.sourceIndex] : nil
  }

  /// The focused row, read now; nil when the `m` filter hides it (nothing is listed).
  var focusedRow: PropertyRow? {
    guard let source = currentSource, state.rowIndex < source.rowCount else { return nil }
    let row = source.row(at: state.rowIndex)
    return state.showsModifiedOnly && !row.isModified ? nil : row
  }

  /// The indices of the shown source's rows that are listed, in order: all of them, or the
  /// modified ones under the `m` filter (the focused row too is hidden when it is not).
  func listedRows() -> ListedRows {
    guard let source = currentSource else { return .all(0) }
    guard state.showsModifiedOnly else { return .all(source.rowCount) }
    return .filtered(source.rowCount) { source.row(at: $0).isModified }
  }

  /// Moves the focus to the listed row nearest to it (the next one on a tie) when the focused
  /// row is not among `listed`; it stays where it is when nothing is listed.
  func keepFocus(amongListed listed: ListedRows) {
    guard listed.position(of: state.rowIndex) == nil,
      let nearest = listed.min(by: { distance($0) < distance($1) })
    else { return }
    state.rowIndex = nearest
  }

  /// How far row `index` is from the focused one; a row below it counts as a little nearer.
  private func distance(_ index: Int) -> Double {
    Double(abs(index - state.rowIndex)) - (index > state.rowIndex ? 0.5 : 0)
  }

  /// Applies one key and reports what to redraw.
  func handle(_ key: KeyPress) -> Damage {
    if key == .resize { return Damage(layout: true) }
    if case .meta(let character) = key, !(state.mode.hasField && LineEditor.usesMeta(character)) {
      // Esc and a key typed fast: the two keys, unless a field edits with that Meta key.
      var damage = handle(.escape)
      damage.formUnion(handle(.character(character)))
      return damage
    }
    switch state.mode {
    case .editing(let row, let format, var field):
      return handleEditing(key, row: row, format: format, field: &field)
    case .searching(var field, let origin):
      return handleSearching(key, field: &field, origin: origin)
    case .overlay:
      state.mode = .browsing
      return Damage(layout: true)
    case .prompting(let prompt, var field):
      return handlePrompt(key, prompt: prompt, field: &field)
    case .picking(let row, let choices, let selected):
      return handlePicking(key, row: row, choices: choices, selected: selected)
    case .changeLog(let selected, let filter):
      return handleChangeLog(key, selected: selected, filter: filter)
    case .browsing:
      state.message = nil
      searchMovesFocus = false
      if let command = state.confirmation {
        state.confirmation = nil
        guard key == .character("y") else {
          state.message = .init(text: "Nothing changed", isError: false)
          return Damage(rows: [state.rowIndex])
        }
        return perform(command, confirmed: true)
      }
      guard let command = KeyMap.command(for: key) else { return Damage(rows: [state.rowIndex]) }
      return perform(command)
    }
  }

  private func perform(_ command: EditorCommand, confirmed: Bool = false) -> Damage {
    switch command {
    case .moveUp: return move(by: -1)
    case .moveDown: return move(by: 1)
    case .pageUp: return move(by: -pageSize)
    case .pageDown: return move(by: pageSize)
    case .moveToTop: return move(by: -Int.max / 2)
    case .moveToBottom: return move(by: Int.max / 2)
    case .focusObjects: return cycleChoice(by: -1) ?? focus(.objects)
    case .focusRows: return cycleChoice(by: 1) ?? focus(.rows)
    case .switchPane: return focus(state.pane == .rows ? .objects : .rows)
    case .activate: return state.pane == .objects ? focus(.rows) : activateRow(toggling: false)
    case .toggle: return state.pane == .rows ? activateRow(toggling: true) : Damage()
    case .resetRow: return resetRow()
    case .resetObject where !confirmed && !isReadOnly:
      let count = currentSource.map { source in
        (0..<source.rowCount).filter { source.row(at: $0).isModified }.count
      }
      state.confirmation = .resetObject
      state.message = .init(
        text: "Reset \(count ?? 0) value(s) of \(currentSource?.title ?? "this object") to their "
          + "defaults? y resets (u undoes), any other key keeps them", isError: false)
      return Damage()
    case .resetObject: return resetObject()
    case .undo: return undo()
    case .search: return startSearch()
    case .nextMatch: return stepMatch(forward: true)
    case .previousMatch: return stepMatch(forward: false)
    case .toggleModifiedOnly:
      state.showsModifiedOnly.toggle()
      keepFocus(amongListed: listedRows())
      state.message = .init(
        text: state.showsModifiedOnly ? "Showing modified rows only (m: all)" : "Showing all rows",
        isError: false)
      return Damage(layout: true)
    case .help:
      state.mode = .overlay(.help)
      return Damage(layout: true)
    case .details:
      guard state.pane == .rows, focusedRow != nil else { return Damage() }
      state.mode = .overlay(.details)
      return Damage(layout: true)
    case .addEntry: return startPrompt(adding: true)
    case .renameKey: return startPrompt(adding: false)
    case .editExternally:
      guard state.pane == .rows, let row = focusedRow else { return Damage() }
      if let refusal = refusal(for: row) {
        state.message = refusal
        return Damage(rows: [state.rowIndex])
      }
      guard case .text(let format, let text) = row.editing else {
        state.message = .init(text: "\(row.name) is not edited as text", isError: false)
        return Damage(rows: [state.rowIndex])
      }
      return editExternally(row: state.rowIndex, format: format, draft: text)
    case .toggleRedrawCounts:
      state.showsRedrawCounts.toggle()
      return Damage(layout: true)
    case .reload:
      return reload()
    case .changeLog:
      state.mode = .changeLog(selected: 0, key: nil)
      return Damage(layout: true)
    case .quit:
      state.isFinished = true
      return Damage()
    }
  }

  private func move(by offset: Int) -> Damage {
    switch state.pane {
    case .rows:
      let listed = listedRows()
      guard !listed.isEmpty else { return Damage() }
      let position = listed.position(of: state.rowIndex) ?? 0
      let old = state.rowIndex
      state.rowIndex = listed[max(0, min(position + offset, listed.count - 1))]
      return Damage(rows: [old, state.rowIndex])
    case .objects:
      let old = state.sourceIndex
      state.sourceIndex = max(0, min(old + offset, sources.count - 1))
      if old != state.sourceIndex { state.rowIndex = 0 }
      return Damage(layout: old != state.sourceIndex)
    }
  }

  private func focus(_ pane: EditorState.Pane) -> Damage {
    guard state.pane != pane else { return Damage() }
    state.pane = pane
    return Damage(layout: true)
  }

  /// Puts the focus on the row whose ``PropertyRow/identity`` is `identity` in the shown source,
  /// when it is still there (keys added or removed elsewhere move rows; the selection follows its
  /// key).
  func refocus(onRow identity: String) {
    guard let source = currentSource else { return }
    if state.rowIndex < source.rowCount, source.row(at: state.rowIndex).identity == identity {
      return
    }
    if let index = (0..<source.rowCount).first(where: { source.row(at: $0).identity == identity }) {
      state.rowIndex = index
    } else {
      state.rowIndex = max(0, min(state.rowIndex, source.rowCount - 1))
    }
  }

  /// Lists the sources ``discoverSources`` finds, suites among the suites by name; the focus
  /// stays on its object. Returns what to draw again (nothing when none was found).
  @discardableResult
  func listNewSources() -> Damage {
    guard let found = discoverSources?(), !found.isEmpty else { return Damage() }
    let focused = currentSource.map(ObjectIdentifier.init)
    let index = state.sourceIndex
    let suites = (sources.filter { $0.kind == .suite } + found).sorted { $0.title < $1.title }
    sources =
      sources.filter { $0.kind == .object || $0.kind == .cloud } + suites
      + sources.filter { $0.kind == .file }
    if let focused {
      state.sourceIndex = sources.firstIndex { ObjectIdentifier($0) == focused } ?? 0
    }
    state.message = .init(
      text: "New: " + found.map(\.title).joined(separator: ", "), isError: false)
    return Damage(layout: index != state.sourceIndex, objects: true)
  }

  /// Lists `source` right after the listed source `anchor` (a suite's "other keys" after its
  /// last schema, once a key none of its schemas lists appears); the focus stays on its source,
  /// and the status line names it when `announcing`. Returns what to draw again (nothing when
  /// `source` is listed already or `anchor` is not listed).
  func list(_ source: any RowSource, after anchor: ObjectIdentifier, announcing: Bool = true)
    -> Damage
  {
    guard !sources.contains(where: { $0 === source }),
      let index = sources.firstIndex(where: { ObjectIdentifier($0) == anchor }).map({ $0 + 1 })
    else { return Damage() }
    unlisted[ObjectIdentifier(source)] = nil
    sources.insert(source, at: index)
    let moves = state.sourceIndex >= index
    if moves { state.sourceIndex += 1 }
    if announcing { state.message = .init(text: "New: \(source.title)", isError: false) }
    return Damage(layout: moves, objects: true)
  }

  /// Takes `source` off the list (a suite's "other keys" once its last key is gone), to come
  /// back after `anchor` when a key appears again or an undo puts one back. When it was shown,
  /// `anchor` is shown instead, from its first row, and the status line says why; otherwise the
  /// focus stays on its source. Returns what to draw again (nothing when `source` is not listed).
  func unlist(_ source: any RowSource, after anchor: ObjectIdentifier) -> Damage {
    guard let index = sources.firstIndex(where: { $0 === source }) else { return Damage() }
    unlisted[ObjectIdentifier(source)] = (source, anchor)
    sources.remove(at: index)
    let wasShown = state.sourceIndex == index
    if wasShown {
      state.sourceIndex = sources.firstIndex { ObjectIdentifier($0) == anchor } ?? max(0, index - 1)
      state.rowIndex = 0
      state.mode = .browsing
      state.message = .init(
        text: "\(source.title) holds no keys now: listed again when one is written", isError: false)
    } else if state.sourceIndex > index {
      state.sourceIndex -= 1
    }
    return Damage(layout: wasShown, objects: true)
  }

  /// The index of the source `identity` names, listing it again when it was taken off the list
  /// (``unlist(_:after:)``); nil when it is neither listed nor waiting.
  func listedIndex(of identity: ObjectIdentifier) -> Int? {
    if let waiting = unlisted[identity] { _ = list(waiting.source, after: waiting.anchor) }
    return sources.firstIndex { ObjectIdentifier($0) == identity }
  }

  /// Lists the suites created since, then reads the shown object, suite or file again from disk;
  /// the rows whose values changed redraw (and are marked as changed elsewhere), the focus stays
  /// on its key.
  private func reload() -> Damage {
    let listed = listNewSources()
    let newSources = listed.objects ? state.message?.text : nil
    guard let source = currentSource as? any ReloadableRowSource else {
      if newSources == nil {
        state.message = .init(
          text: "\(currentSource?.title ?? "This object") is not read from disk: nothing to reload",
          isError: false)
      }
      return listed
    }
    let index = state.rowIndex
    let key = focusedRow?.key
    do {
      try source.reload()
      state.message = .init(
        text: (["Reloaded \(source.title) from disk"] + [newSources].compactMap { $0 })
          .joined(separator: "; "), isError: false)
    } catch {
      state.message = .init(text: "Could not reload \(source.title): \(error)", isError: true)
    }
    if let key { refocus(onRowKeyed: key) }
    state.rowIndex = max(0, min(state.rowIndex, source.rowCount - 1))
    // The rows that changed redraw by themselves, marked as changed elsewhere.
    var damage = Damage(
      rows: index == state.rowIndex ? [] : [index, state.rowIndex], focusPlaced: true)
    damage.formUnion(listed)
    return damage
  }

  /// Puts the focus on the row stored under `key` in the shown source, when there is one.
  func refocus(onRowKeyed key: String) {
    guard let source = currentSource,
      let index = (0..<source.rowCount).first(where: { source.row(at: $0).key == key })
    else { return }
    state.rowIndex = index
  }

  /// Shows a diagnostic the library reported (a failed write, a file that stopped parsing) on
  /// the status line, as an error.
  func show(_ diagnostic: Diagnostic) {
    state.message = .init(text: diagnostic.description, isError: true)
  }

  /// Tells the user that the row being edited changed elsewhere; the draft stays, and its Enter
  /// asks before overwriting the other value.
  func noteChangedElsewhere(row index: Int) {
    guard case .editing(let editing, _, _) = state.mode, editing == index,
      let source = currentSource, index < source.rowCount
    else { return }
    state.changedElsewhereWhileEditing = index
    state.message = .init(
      text: "Changed elsewhere: \(source.row(at: index).value) (Enter: keep yours or take theirs)",
      isError: false)
  }
}

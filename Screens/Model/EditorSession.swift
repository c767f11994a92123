/// The parts of the screen a key press made stale.
struct Damage: Equatable {
  /// Everything must be laid out and drawn again (new source, pane switch, resize).
  var layout = false
  /// Rows of the shown source to draw again (cursor moved), by index.
  var rows: Set<Int> = []

  /// Adds what `other` needs redrawn.
  mutating func formUnion(_ other: Damage) {
    layout = layout || other.layout
    rows.formUnion(other.rows)
  }
}

/// The editor's behaviour without any drawing: the sources, the state, and what each key does.
@MainActor
final class EditorSession {
  /// Everything the objects pane lists.
  let sources: [any RowSource]
  private(set) var state = EditorState()
  /// Rows a page key moves by; the screen sets it from its layout.
  var pageSize = 10

  init(sources: [any RowSource]) {
    self.sources = sources
  }

  /// The source shown in the rows pane, if any.
  var currentSource: (any RowSource)? {
    sources.indices.contains(state.sourceIndex) ? sources[state.sourceIndex] : nil
  }

  /// Applies one key and reports what to redraw.
  func handle(_ key: KeyPress) -> Damage {
    if key == .resize { return Damage(layout: true) }
    if case .editing(let row, let format, var field) = state.mode {
      return handleEditing(key, row: row, format: format, field: &field)
    }
    state.message = nil
    guard let command = KeyMap.command(for: key) else { return Damage() }
    return perform(command)
  }

  private func perform(_ command: EditorCommand) -> Damage {
    switch command {
    case .moveUp: return move(to: focusedIndex - 1)
    case .moveDown: return move(to: focusedIndex + 1)
    case .pageUp: return move(to: focusedIndex - pageSize)
    case .pageDown: return move(to: focusedIndex + pageSize)
    case .moveToTop: return move(to: 0)
    case .moveToBottom: return move(to: Int.max)
    case .focusObjects: return focus(.objects)
    case .focusRows: return focus(.rows)
    case .switchPane: return focus(state.pane == .rows ? .objects : .rows)
    case .activate: return state.pane == .objects ? focus(.rows) : activateRow(toggling: false)
    case .toggle: return state.pane == .rows ? activateRow(toggling: true) : Damage()
    case .toggleRedrawCounts:
      state.showsRedrawCounts.toggle()
      return Damage(layout: true)
    case .quit:
      state.isFinished = true
      return Damage()
    }
  }

  private var focusedIndex: Int {
    state.pane == .rows ? state.rowIndex : state.sourceIndex
  }

  private func move(to index: Int) -> Damage {
    switch state.pane {
    case .rows:
      let count = currentSource?.rowCount ?? 0
      let old = state.rowIndex
      state.rowIndex = max(0, min(index, count - 1))
      return Damage(rows: [old, state.rowIndex])
    case .objects:
      let old = state.sourceIndex
      state.sourceIndex = max(0, min(index, sources.count - 1))
      if old != state.sourceIndex { state.rowIndex = 0 }
      return Damage(layout: old != state.sourceIndex)
    }
  }

  private func focus(_ pane: EditorState.Pane) -> Damage {
    guard state.pane != pane else { return Damage() }
    state.pane = pane
    return Damage(layout: true)
  }

  private func activateRow(toggling: Bool) -> Damage {
    guard let source = currentSource, state.rowIndex < source.rowCount else { return Damage() }
    let row = source.row(at: state.rowIndex)
    switch row.editing {
    case .toggle(let flag):
      store(!flag, row: row, index: state.rowIndex, in: source)
    case .text(let format, let text):
      if toggling {
        state.message = .init(text: "Space toggles Bool values; Enter edits \(row.name)", isError: false)
      } else {
        state.mode = .editing(row: state.rowIndex, format: format, field: LineEditor(text: text))
      }
    case .readOnly(let reason):
      state.message = .init(text: "\(row.name) is read-only: \(reason)", isError: true)
    }
    return Damage(rows: [state.rowIndex])
  }

  private func handleEditing(_ key: KeyPress, row index: Int, format: TextValueFormat, field: inout LineEditor) -> Damage {
    switch field.handle(key) {
    case .editing:
      state.mode = .editing(row: index, format: format, field: field)
    case .cancel:
      state.mode = .browsing
      state.message = nil
    case .commit:
      guard let source = currentSource, index < source.rowCount else {
        state.mode = .browsing
        return Damage()
      }
      let row = source.row(at: index)
      do {
        let value = try format.parse(field.text)
        state.mode = .browsing
        store(value, row: row, index: index, in: source)
      } catch {
        state.message = .init(text: "Refused: \(error); \(row.name) unchanged", isError: true)
      }
    }
    return Damage(rows: [index])
  }

  private func store(_ value: Any, row: PropertyRow, index: Int, in source: any RowSource) {
    do {
      try source.setValue(value, at: index)
      state.message = .init(text: "Saved \(row.name) = \(source.row(at: index).value)", isError: false)
    } catch {
      state.message = .init(text: "Not saved: \(error)", isError: true)
    }
  }
}

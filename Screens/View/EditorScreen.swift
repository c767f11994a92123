import Observation

/// Draws an ``EditorSession`` on a ``Canvas``: the whole screen after a layout change, and
/// otherwise only the rows that went stale, each read inside Observation tracking.
@MainActor
final class EditorScreen {
  /// Identifies a row across sources, for the redraw counters.
  struct RowID: Hashable {
    let source: Int
    let row: Int
  }

  /// Receives the stale rows from Observation callbacks; the loop wakes through it.
  let invalidation: RowInvalidation
  private let canvas: any Canvas
  private let session: EditorSession
  private let glyphs: Glyphs
  private var layout: ScreenLayout?
  private var generation = 0
  private var rowScroll = 0
  private var sourceScroll = 0
  private var redrawCounts: [RowID: Int] = [:]

  init(canvas: any Canvas, session: EditorSession, glyphs: Glyphs, wake: @escaping @Sendable () -> Void) {
    self.canvas = canvas
    self.session = session
    self.glyphs = glyphs
    invalidation = RowInvalidation(wake: wake)
  }

  /// How many times the row was redrawn because its value changed (cursor moves and full
  /// paints do not count).
  func redrawCount(source: Int, row: Int) -> Int {
    redrawCounts[RowID(source: source, row: row), default: 0]
  }

  /// Draws what `damage` and the pending invalidations require, then presents one frame.
  func draw(_ damage: Damage) {
    let pending = invalidation.take()
    if layout == nil || damage.layout || pending.layout || layout?.size != canvas.size || scrollToFocus() {
      paintAll()
    } else {
      for index in pending.rows.sorted() {
        redrawCounts[RowID(source: session.state.sourceIndex, row: index), default: 0] += 1
      }
      for index in pending.rows.union(damage.rows).sorted() { paintRow(index) }
      paintStatus()
    }
    canvas.present()
  }

  /// Adjusts the scroll offsets so the focused entries are visible; true when one moved.
  private func scrollToFocus() -> Bool {
    let visible = layout?.visibleCount ?? 0
    let state = session.state
    let oldScrolls = (rowScroll, sourceScroll)
    rowScroll = Self.scroll(rowScroll, toShow: state.rowIndex, visible: visible)
    sourceScroll = Self.scroll(sourceScroll, toShow: state.sourceIndex, visible: visible)
    return oldScrolls != (rowScroll, sourceScroll)
  }

  private static func scroll(_ offset: Int, toShow index: Int, visible: Int) -> Int {
    guard visible > 0 else { return 0 }
    if index < offset { return index }
    if index >= offset + visible { return index - visible + 1 }
    return offset
  }

  private func paintAll() {
    generation = invalidation.startGeneration()
    canvas.clearAll()
    let source = session.currentSource
    let generation = generation
    let invalidation = invalidation
    let rowCount = withObservationTracking { source?.rowCount ?? 0 } onChange: {
      invalidation.invalidateLayout(generation: generation)
    }
    let rows = (0..<rowCount).compactMap { source?.row(at: $0) }
    let layout = ScreenLayout(
      size: canvas.size, titles: session.sources.map(\.title), rows: rows,
      showsKeys: source?.kind == .object, showsRedrawCounts: session.state.showsRedrawCounts)
    self.layout = layout
    session.pageSize = max(1, layout.visibleCount - 1)
    guard !layout.isTooSmall else {
      let need = ScreenLayout.minimumSize
      canvas.put("Terminal too small: need \(need.columns)x\(need.rows)", row: 0, column: 0, style: .bold)
      return
    }
    _ = scrollToFocus()
    paintHeader()
    paintObjects()
    paintColumnHeadings()
    for index in rowScroll..<min(rowCount, rowScroll + layout.visibleCount) { paintRow(index) }
    paintStatus()
  }

  private func paintHeader() {
    guard let layout else { return }
    let source = session.currentSource
    let badge = source.map { " [\($0.kind.rawValue)\($0.kind == .file ? ", read-only" : "")] " } ?? ""
    let title = " settings-editor  \(source?.title ?? "no objects")  \(source?.location ?? "")"
    let width = layout.size.columns - TextWidth.columns(badge)
    canvas.put(TextWidth.fit(title, width: width, ellipsis: glyphs.ellipsis) + badge, row: 0, column: 0, style: .reverse)
  }

  private func paintObjects() {
    guard let layout else { return }
    let state = session.state
    canvas.put(TextWidth.fit(" Objects", width: layout.objectsWidth, ellipsis: glyphs.ellipsis), row: 1, column: 0, style: .bold)
    for line in 1..<layout.size.rows - 2 {
      canvas.put(glyphs.separator, row: line, column: layout.objectsWidth, style: .dim)
    }
    let sources = session.sources
    for index in sourceScroll..<min(sources.count, sourceScroll + layout.visibleCount) {
      let isSelected = index == state.sourceIndex
      let text = (isSelected ? glyphs.selected : " ") + " " + sources[index].title
      let style: TextStyle = isSelected ? (state.pane == .objects ? .reverse : .bold) : []
      canvas.put(
        TextWidth.fit(text, width: layout.objectsWidth, ellipsis: glyphs.ellipsis),
        row: layout.firstListLine + index - sourceScroll, column: 0, style: style)
    }
  }

  private func paintColumnHeadings() {
    guard let layout else { return }
    let headings = PropertyRow(name: "Name", key: "Key", typeName: "Type", value: "Value", editing: .readOnly(""))
    let counter = layout.counterWidth > 0 ? "Redraws" : ""
    canvas.put(rowText(headings, marker: " ", counter: counter, in: layout), row: 1, column: layout.rowsColumn, style: .bold)
  }

  private func paintRow(_ index: Int) {
    guard let layout, let source = session.currentSource, !layout.isTooSmall else { return }
    let line = layout.firstListLine + index - rowScroll
    guard index >= rowScroll, line < layout.firstListLine + layout.visibleCount, index < source.rowCount else { return }
    let generation = generation
    let invalidation = invalidation
    let row = withObservationTracking { source.row(at: index) } onChange: {
      invalidation.invalidateRow(index, generation: generation)
    }
    let state = session.state
    let isFocused = index == state.rowIndex
    let counter = "\(glyphs.redraws)\(redrawCount(source: state.sourceIndex, row: index))"
    var style: TextStyle = row.isModified ? .bold : []
    if isFocused { style.insert(state.pane == .rows ? .reverse : .underline) }
    canvas.clearLine(line, from: layout.rowsColumn)
    canvas.put(
      rowText(row, marker: row.isModified ? glyphs.modified : " ", counter: counter, in: layout),
      row: line, column: layout.rowsColumn, style: style)
  }

  /// One row of the table: marker, name, key, type, value, counter, each fitted to its column.
  private func rowText(_ row: PropertyRow, marker: String, counter: String, in layout: ScreenLayout) -> String {
    let fit = { (text: String, width: Int) in TextWidth.fit(text, width: width, ellipsis: self.glyphs.ellipsis) }
    var text = marker + " " + fit(row.name, layout.nameWidth) + "  "
    if layout.keyWidth > 0 { text += fit(row.key ?? "-", layout.keyWidth) + "  " }
    text += fit(row.typeName, layout.typeWidth) + "  " + fit(row.value, layout.valueWidth)
    if layout.counterWidth > 0 { text += "  " + fit(counter, layout.counterWidth - 2) }
    return text
  }

  private func paintStatus() {
    guard let layout, !layout.isTooSmall else { return }
    let state = session.state
    canvas.clearLine(layout.statusLine, from: 0)
    canvas.clearLine(layout.keyBarLine, from: 0)
    var cursor: (row: Int, column: Int)?
    switch state.mode {
    case .editing(let index, let format, let field):
      let name = session.currentSource.map { $0.row(at: index).name } ?? ""
      let prompt = " \(name) (\(format.typeName)\(format.isOptional ? ", empty = nil" : "")): "
      canvas.put(prompt, row: layout.statusLine, column: 0, style: .bold)
      let start = TextWidth.columns(prompt)
      canvas.put(TextWidth.fit(field.text, width: layout.size.columns - start - 1, ellipsis: glyphs.ellipsis, pad: false), row: layout.statusLine, column: start, style: .underline)
      cursor = (layout.statusLine, min(layout.size.columns - 1, start + TextWidth.columns(String(field.text.prefix(field.cursor)))))
      if let message = state.message {
        canvas.put(TextWidth.fit(" " + message.text, width: layout.size.columns, ellipsis: glyphs.ellipsis), row: layout.keyBarLine, column: 0, style: .bold)
      } else {
        paintKeyBar(KeyMap.editingHints, layout: layout)
      }
    case .browsing:
      let text = state.message.map { " " + $0.text } ?? focusedRowDetails()
      canvas.put(TextWidth.fit(text, width: layout.size.columns, ellipsis: glyphs.ellipsis), row: layout.statusLine, column: 0, style: state.message?.isError == true ? .bold : [])
      paintKeyBar(KeyMap.browse.compactMap(\.hint), layout: layout)
    }
    canvas.setCursor(cursor)
  }

  private func paintKeyBar(_ hints: [String], layout: ScreenLayout) {
    canvas.put(TextWidth.fit(" " + hints.joined(separator: "  "), width: layout.size.columns, ellipsis: glyphs.ellipsis), row: layout.keyBarLine, column: 0, style: .dim)
  }

  /// The focused row's summary, default and storage, for the status line.
  private func focusedRowDetails() -> String {
    guard let source = session.currentSource, session.state.rowIndex < source.rowCount else { return "" }
    let row = source.row(at: session.state.rowIndex)
    var parts = [" \(row.name)"]
    if let summary = row.summary { parts.append(summary) }
    if let defaultValue = row.defaultValue { parts.append("default: \(defaultValue)") }
    if row.key == nil { parts.append("not stored (@ObservableOnly)") }
    if case .readOnly(let reason) = row.editing { parts.append(reason) }
    return parts.joined(separator: " · ")
  }
}

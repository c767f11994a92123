/// Draws an ``EditorSession`` on a ``Canvas``: the whole screen after a layout change, and
/// otherwise only the rows that went stale, each read inside Observation tracking.
@MainActor
final class EditorScreen {
  /// Identifies a row across sources, for the redraw counters and change marks.
  struct RowID: Hashable {
    let source: Int
    let row: Int
  }

  /// Receives the stale rows from Observation callbacks; the loop wakes through it.
  let invalidation: RowInvalidation
  let canvas: any Canvas
  let session: EditorSession
  let glyphs: Glyphs
  private(set) var layout: ScreenLayout?
  private let now: () -> ContinuousClock.Instant
  private var generation = 0
  private var rowScroll = 0
  private var sourceScroll = 0
  /// The listed rows (source indices) in screen order.
  private var listed = ListedRows.all(0)
  private var redrawCounts: [RowID: Int] = [:]
  private var marks = ChangeMarks()
  /// How many lines of the rows pane the status message covered in the last frame.
  private var messageCover = 0
  /// The focused row's identity when the last frame was drawn, to find it again after keys
  /// come and go.
  private var focusedIdentity: String?
  /// The shown source's state in the header (a cloud store's sync state) and when it was last
  /// compared with the source's: it changes without any value changing (the cluster went away),
  /// so while one is shown the loop wakes every ``stateInterval`` to look. Whether a suite's file
  /// reads needs no look: its suite wakes the loop (``RowSource/suiteFile``).
  private var shownState: String?
  /// Why the shown source's file could not be read when the screen was last drawn (the rows
  /// are drawn stale meanwhile); it too changes without a value changing.
  private var shownUnreadable: String?
  private var stateCheckedAt: ContinuousClock.Instant?
  /// Rows of the shown source redrawn for a changed value while no change report waited, by
  /// key, and the bytes of those frames. Observation tells a row on the writing thread, before
  /// the store's observers post the change's report to the loop, so a frame can fall between
  /// the two: the frame that takes the report draws those rows again (their told count changed)
  /// and counts them as what the change did.
  private var redrawnBeforeReport: (rows: [String: Int], bytes: Int) = ([:], 0)

  /// How often a shown source state is compared with the source's: 1 s.
  static let stateInterval: Duration = .seconds(1)

  /// - Parameters:
  ///   - wake: wakes the loop after an invalidation, from any thread.
  ///   - now: the clock for change marks (tests pass their own).
  init(
    canvas: any Canvas, session: EditorSession, glyphs: Glyphs,
    wake: @escaping @Sendable () -> Void,
    now: @escaping () -> ContinuousClock.Instant = { .now }
  ) {
    self.canvas = canvas
    self.session = session
    self.glyphs = glyphs
    self.now = now
    invalidation = RowInvalidation(wake: wake)
  }

  /// How many times the row was redrawn because its value changed (cursor moves and full
  /// paints do not count).
  func redrawCount(source: Int, row: Int) -> Int {
    redrawCounts[RowID(source: source, row: row), default: 0]
  }

  /// When the screen must be drawn again without a key or a change: a change mark runs out, or
  /// a shown source state (a sync state) is due to be compared; nil when neither, so an idle
  /// editor does not wake.
  var nextDeadline: ContinuousClock.Instant? {
    let stateCheck = shownState != nil ? stateCheckedAt.map { $0 + Self.stateInterval } : nil
    return [marks.nextDeadline, stateCheck].compactMap { $0 }.min()
  }

  /// Draws what `damage` and the pending invalidations require, then presents one frame.
  ///
  /// Rows invalidated without a key having touched them changed elsewhere: they are marked for
  /// ``ChangeMarks/duration`` and, if one is being edited, the user is told (the draft stays).
  func draw(_ damage: Damage) {
    session.dropMessageOfReadableSource()
    let pending = invalidation.take()
    let source = session.state.sourceIndex
    // A key that relays out (D, undo of D) may have written many rows itself: no marks then.
    let changedElsewhere = damage.layout ? [] : pending.rows.subtracting(damage.rows)
    for index in changedElsewhere {
      marks.mark(RowID(source: source, row: index), at: now())
      session.noteChangedElsewhere(row: index)
    }
    let expired = marks.expire(at: now()).filter { $0.source == source }.map(\.row)
    // A message over the rows (long, or above a field) that went or changed size: the rows
    // under it are drawn again.
    let messageCover = messageLines().count - (session.state.mode.ownsStatusLine ? 0 : 1)
    defer { self.messageCover = messageCover }
    let paintsAll =
      layout == nil || damage.layout || pending.layout || layout?.size != canvas.size
      || session.state.mode.coversRows || scrollToFocus()
      || (messageCover != self.messageCover && max(messageCover, self.messageCover) > 0)
      || (damage.objects && objectsWidth() != layout?.objectsWidth)
      || session.currentSource?.unreadableReason != shownUnreadable
    let reportedLate = paintsAll ? [] : rowsReportedLate()
    if paintsAll {
      paintAll(keysChanged: pending.layout && !damage.focusPlaced)
    } else {
      for index in pending.rows {
        redrawCounts[RowID(source: source, row: index), default: 0] += 1
      }
      let painted = pending.rows.union(damage.rows).union(expired).union(reportedLate)
      for index in painted.sorted() { paintRow(index) }
      if damage.objects { paintObjects() }
      if session.currentSource?.state != shownState { paintHeader() }
      paintStatus()
    }
    stateCheckedAt = now()
    focusedIdentity = session.focusedRow?.identity
    canvas.present()
    presentDownstream(
      redrawn: paintsAll ? nil : pending.rows, reportedLate: reportedLate.count)
  }

  /// The rows in ``redrawnBeforeReport`` whose change report now waits.
  private func rowsReportedLate() -> Set<Int> {
    guard session.changeLog.hasWaiting, !redrawnBeforeReport.rows.isEmpty else { return [] }
    let shown = session.currentSource.map(ObjectIdentifier.init)
    let keys = session.changeLog.waitingEntries.filter { $0.source == shown }.map(\.change.key)
    return Set(keys.compactMap { redrawnBeforeReport.rows[$0] })
  }

  /// Tells the changes drawn in this frame what it did (`redrawn`: the rows drawn for changed
  /// values, nil when the whole screen was drawn; `reportedLate`: how many of the rows drawn
  /// in earlier frames it counts too); when that puts a line on the status line (the counters
  /// of `c` are shown), draws it in a frame of its own.
  private func presentDownstream(redrawn: Set<Int>?, reportedLate: Int) {
    guard session.changeLog.hasWaiting else {
      rememberRedrawnBeforeReport(redrawn)
      return
    }
    let earlier = reportedLate > 0 ? redrawnBeforeReport.bytes : 0
    redrawnBeforeReport = ([:], 0)
    let message = session.state.message
    session.completeChanges(
      rowsRedrawn: redrawn.map { $0.count + reportedLate },
      bytesWritten: canvas.bytesPresented.map { $0 + earlier })
    guard session.state.message != message else { return }
    paintStatus()
    canvas.present()
  }

  /// Keeps the rows drawn for changed values in a frame no report waited for (see
  /// ``redrawnBeforeReport``); a full paint forgets them, as their indices may have moved.
  private func rememberRedrawnBeforeReport(_ redrawn: Set<Int>?) {
    guard let redrawn, let source = session.currentSource else {
      redrawnBeforeReport = ([:], 0)
      return
    }
    guard !redrawn.isEmpty else { return }
    for index in redrawn {
      if let key = source.row(at: index).key { redrawnBeforeReport.rows[key] = index }
    }
    redrawnBeforeReport.bytes += canvas.bytesPresented ?? 0
  }

  /// Adjusts the scroll offsets so the focused entries are visible; true when one moved.
  private func scrollToFocus() -> Bool {
    let visible = layout?.visibleCount ?? 0
    let state = session.state
    let oldScrolls = (rowScroll, sourceScroll)
    // Under `m` the focused row leaves the list when it is no longer modified (`d`).
    let focusHidden = state.showsModifiedOnly && session.focusedRow == nil
    if let position = listed.position(of: state.rowIndex), !focusHidden {
      rowScroll = Self.scroll(
        rowScroll, toShow: position, visible: visible, count: listed.count)
    } else if !listed.isEmpty {
      // The focus left the listed rows (a filter changed): list them again.
      return true
    }
    sourceScroll = Self.scroll(
      sourceScroll, toShow: state.sourceIndex, visible: visible, count: session.sources.count)
    return oldScrolls != (rowScroll, sourceScroll)
  }

  /// The scroll offset that shows entry `index` of `count`, moving `offset` as little as it
  /// can; a list that fits again (the terminal grew) is anchored back so that no empty line is
  /// left below a scrolled list.
  private static func scroll(_ offset: Int, toShow index: Int, visible: Int, count: Int) -> Int {
    guard visible > 0 else { return 0 }
    let offset = min(offset, max(0, count - visible))
    if index < offset { return index }
    if index >= offset + visible { return index - visible + 1 }
    return offset
  }

  private func paintAll(keysChanged: Bool) {
    generation = invalidation.startGeneration()
    canvas.clearAll()
    if keysChanged, let focusedIdentity { session.refocus(onRow: focusedIdentity) }
    let source = session.currentSource
    let generation = generation
    let invalidation = invalidation
    let rowCount = trackAfterChange {
      source?.rowCount ?? 0
    } onChange: {
      invalidation.invalidateLayout(generation: generation)
    }
    // After the rows were counted: a suite is read when its rows are first needed.
    shownUnreadable = source?.unreadableReason
    listed = session.listedRows().limited(to: rowCount)
    session.keepFocus(amongListed: listed)
    let rows = rowsToFit(rowCount: rowCount)
    let layout = ScreenLayout(
      size: canvas.size, titles: session.sources.map(objectTitle), rows: rows,
      showsKeys: source?.kind == .object || source?.kind == .cloud,
      showsRedrawCounts: session.state.showsRedrawCounts)
    self.layout = layout
    session.pageSize = max(1, layout.visibleCount - 1)
    guard !layout.isTooSmall else {
      for (line, text) in TooSmallMessage.lines(for: layout.size).enumerated() {
        canvas.put(text, row: line, column: 0, style: .bold)
      }
      return
    }
    _ = scrollToFocus()
    paintHeader()
    paintObjects()
    switch session.state.mode.overlay {
    case .help: paintHelp()
    case .details: paintDetails()
    case nil where session.state.mode.coversRows: paintChangeLog()
    case nil:
      paintColumnHeadings()
      for index in listed.dropFirst(rowScroll).prefix(layout.visibleCount) { paintRow(index) }
      if listed.isEmpty { paintEmptyRows(source) }
    }
    paintStatus()
  }

  /// The rows the columns fit: every row of a source of up to ``ScreenLayout/rowsFittedWhole``
  /// rows, else only the ones on screen (a large suite's first paint builds those alone).
  private func rowsToFit(rowCount: Int) -> [PropertyRow] {
    guard let source = session.currentSource else { return [] }
    guard rowCount > ScreenLayout.rowsFittedWhole else {
      return (0..<rowCount).map(source.row(at:))
    }
    let visible = ScreenLayout.visibleCount(in: canvas.size)
    if let position = listed.position(of: session.state.rowIndex) {
      rowScroll = Self.scroll(
        rowScroll, toShow: position, visible: visible, count: listed.count)
    }
    return listed.dropFirst(rowScroll).prefix(visible).map(source.row(at:))
  }

  private func paintEmptyRows(_ source: (any RowSource)?) {
    guard let layout else { return }
    let text =
      source?.problem.map { "  " + $0 }
      ?? (session.state.showsModifiedOnly ? "  (no modified values; m shows all)" : "  (no keys)")
    canvas.put(
      TextWidth.fit(text, width: layout.rowsWidth, ellipsis: glyphs.ellipsis),
      row: layout.firstListLine, column: layout.rowsColumn,
      style: source?.problem == nil ? .dim : .bold)
  }

  /// The objects pane's width for the sources listed now.
  private func objectsWidth() -> Int {
    ScreenLayout.objectsWidth(titles: session.sources.map(objectTitle), size: canvas.size)
  }

  /// An entry of the objects pane: the title, marked when it is on the cloud store.
  private func objectTitle(_ source: any RowSource) -> String {
    let title = TextWidth.singleLine(source.title)
    return source.kind == .cloud ? "\(title) \(glyphs.cloud)" : title
  }

  private func paintHeader() {
    guard let layout else { return }
    let source = session.currentSource
    shownState = source?.state
    var badges = [source?.kind.rawValue, shownState].compactMap { $0 }
    if session.isReadOnly { badges.append("RO") }
    if shownUnreadable != nil {
      badges.append("UNREADABLE")
    } else if !session.isReadOnly {
      badges.append("LIVE")
    }
    if session.state.showsModifiedOnly { badges.append("modified only") }
    let columns = layout.size.columns
    let program = " \(session.programName)  "
    let title = program + "\(source.map(objectTitle) ?? "no objects")  "
    // The badges come whole: the path is shortened first, then the object's name (the objects
    // pane names it too); only badges longer than the line beside the program's name (a long
    // sync error) are cut, never wrapped.
    let badge = TextWidth.fit(
      " [" + badges.joined(separator: ", ") + "] ",
      width: max(columns / 2, columns - TextWidth.columns(program)),
      ellipsis: glyphs.ellipsis, pad: false)
    let width = columns - TextWidth.columns(badge) - TextWidth.columns(title)
    let location = TextWidth.fitMiddle(
      source?.location ?? "", width: max(0, width), ellipsis: glyphs.ellipsis)
    canvas.put(
      TextWidth.fit(
        title + location, width: columns - TextWidth.columns(badge), ellipsis: glyphs.ellipsis)
        + badge, row: 0, column: 0, style: [.reverse, .title])
  }

  private func paintObjects() {
    guard let layout else { return }
    let state = session.state
    canvas.put(
      TextWidth.fit(" Objects", width: layout.objectsWidth, ellipsis: glyphs.ellipsis), row: 1,
      column: 0, style: .bold)
    for line in 1..<layout.size.rows - 2 {
      canvas.put(glyphs.separator, row: line, column: layout.objectsWidth, style: .dim)
    }
    let sources = session.sources
    for index in sourceScroll..<min(sources.count, sourceScroll + layout.visibleCount) {
      let isSelected = index == state.sourceIndex
      let text = (isSelected ? glyphs.selected : " ") + " " + objectTitle(sources[index])
      let style: TextStyle = isSelected ? (state.pane == .objects ? .reverse : .bold) : []
      canvas.put(
        TextWidth.fit(text, width: layout.objectsWidth, ellipsis: glyphs.ellipsis),
        row: layout.firstListLine + index - sourceScroll, column: 0, style: style)
    }
  }

  private func paintColumnHeadings() {
    guard let layout else { return }
    let headings = PropertyRow(
      name: "Name", key: "Key", typeName: "Type", value: "Value", editing: .readOnly(""))
    let counter = layout.counterWidth > 0 ? "Told Redraws" : ""
    canvas.put(
      rowText(headings, marker: " ", counter: counter, in: layout), row: 1,
      column: layout.rowsColumn, style: .bold)
  }

  private func paintRow(_ index: Int) {
    guard let layout, let source = session.currentSource, !layout.isTooSmall,
      !session.state.mode.coversRows, let position = listed.position(of: index)
    else { return }
    let line = layout.firstListLine + position - rowScroll
    guard position >= rowScroll, line < layout.firstListLine + layout.visibleCount,
      index < source.rowCount
    else { return }
    let generation = generation
    let invalidation = invalidation
    let row = trackAfterChange {
      source.row(at: index)
    } onChange: {
      invalidation.invalidateRow(index, generation: generation)
    }
    let state = session.state
    let id = RowID(source: state.sourceIndex, row: index)
    let isFocused = index == state.rowIndex
    let isMarked = marks.isMarked(id, at: now())
    let told = "\(row.key.map { session.observersTold[$0, default: 0] } ?? 0)"
    let counter =
      told + String(repeating: " ", count: max(1, 5 - told.count))
      + "\(glyphs.redraws)\(redrawCount(source: state.sourceIndex, row: index))"
    var style: TextStyle = row.isModified ? .bold : []
    if shownUnreadable != nil { style.insert(.dim) }  // the last values read: stale
    if isFocused { style.insert(state.pane == .rows ? .reverse : .underline) }
    if isMarked { style.formUnion(isFocused ? .changed : [.reverse, .changed]) }
    let marker =
      isMarked
      ? glyphs.changed
      : row.problem != nil
        ? glyphs.invalid : row.isLocked ? glyphs.locked : row.isModified ? glyphs.modified : " "
    canvas.clearLine(line, from: layout.rowsColumn)
    canvas.put(
      rowText(row, marker: marker, counter: counter, in: layout), row: line,
      column: layout.rowsColumn, style: style)
  }

  /// One row of the table: marker, name, key, type, value, counter, each fitted to its column.
  private func rowText(_ row: PropertyRow, marker: String, counter: String, in layout: ScreenLayout)
    -> String
  {
    let fit = { (text: String, width: Int) in
      TextWidth.fit(TextWidth.singleLine(text), width: width, ellipsis: self.glyphs.ellipsis)
    }
    var text = marker + " " + fit(glyphs.spelled(row.name), layout.nameWidth) + "  "
    if layout.keyWidth > 0 { text += fit(row.key ?? "-", layout.keyWidth) + "  " }
    text += fit(row.typeName, layout.typeWidth) + "  " + fit(row.value, layout.valueWidth)
    if layout.counterWidth > 0 { text += "  " + fit(counter, layout.counterWidth - 2) }
    return text
  }
}

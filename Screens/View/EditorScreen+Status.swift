import ObservableDefaultsCore

/// The bottom two lines: the context or prompt line and the key bar.
extension EditorScreen {
  func paintStatus() {
    guard let layout, !layout.isTooSmall else { return }
    let state = session.state
    canvas.clearLine(layout.statusLine, from: 0)
    canvas.clearLine(layout.keyBarLine, from: 0)
    var cursor: (row: Int, column: Int)?
    var hints: [String]
    switch state.mode {
    case .editing(let index, let format, let field):
      let row = session.currentSource.map { $0.row(at: index) }
      let prompt = " \(row?.name ?? "") (\(row?.typeName ?? format.typeName)\(format.inputHint)): "
      cursor = paintField(prompt: prompt, field: field, layout: layout)
      hints = KeyMap.editingHints
    case .searching(let field, _):
      let count = session.matches().count
      let soFar = session.isSearching ? " so far" : ""
      cursor = paintField(
        prompt: " Find (\(count) match\(count == 1 ? "" : "es")\(soFar)): ", field: field,
        layout: layout)
      hints = KeyMap.searchingHints
    case .prompting(let prompt, let field):
      cursor = paintField(prompt: session.promptText(prompt), field: field, layout: layout)
      hints = KeyMap.editingHints
    case .picking(let index, let choices, let selected):
      let row = session.currentSource.map { $0.row(at: index) }
      paintPicker(
        prompt: " \(row?.name ?? "") (\(row?.typeName ?? "")): ", choices: choices,
        selected: selected, layout: layout)
      hints = KeyMap.pickingHints
    case .overlay(let overlay):
      let title =
        overlay == .help
        ? " Keys in the editor; the bar at the bottom shows those for the focused row"
        : " Details of \(session.focusedRow?.name ?? "the row")"
      paintLine(title, layout.statusLine, style: .bold)
      hints = KeyMap.overlayHints
    case .changeLog(let selected, let key):
      paintLine(changeLogStatus(selected: selected, key: key), layout.statusLine, style: [])
      hints = KeyMap.changeLogHints
    case .browsing:
      if state.message == nil { paintLine(contextLine(), layout.statusLine, style: []) }
      hints = KeyMap.browseHints(
        for: state.pane == .rows ? session.focusedRow?.editing : nil,
        reloads: [.suite, .file].contains(session.currentSource?.kind),
        readOnly: session.isReadOnly)
    }
    paintLine(
      Self.keyBar(hints, width: layout.size.columns, glyphs: glyphs), layout.keyBarLine,
      style: .dim)
    paintMessage()
    canvas.setCursor(cursor)
  }

  /// The key bar of `hints` in `width` columns: when they do not all fit, hints before the last
  /// two (`? help`, `q quit`) are left out, last first, so that those two always show.
  static func keyBar(_ hints: [String], width: Int, glyphs: Glyphs) -> String {
    var kept = hints
    func line() -> String { " " + kept.joined(separator: "  ") }
    while kept.count > 2, TextWidth.columns(glyphs.spelled(line())) > width {
      kept.remove(at: kept.count - 3)
    }
    return line()
  }

  /// The status message in lines of the screen's width: the whole message, however long (a
  /// refusal names the file, the key and both types), up to half the rows pane.
  func messageLines() -> [String] {
    guard let layout, let message = session.state.message else { return [] }
    let lines = TextWidth.wrap(glyphs.spelled(" " + message.text), width: layout.size.columns)
    let room = max(1, layout.visibleCount / 2)
    guard lines.count > room else { return lines }
    return Array(lines.prefix(room - 1)) + [lines[room - 1] + lines[room...].joined()]
  }

  /// Draws the status message: on the status line while browsing, above the field while a
  /// value or a search is typed; a long one takes the lines above (the rows under it are drawn
  /// again when it goes).
  private func paintMessage() {
    guard let layout, let message = session.state.message else { return }
    let lines = messageLines()
    let last = session.state.mode.ownsStatusLine ? layout.statusLine - 1 : layout.statusLine
    let style: TextStyle =
      message.isError ? [.bold, .alert] : session.state.mode.ownsStatusLine ? .bold : []
    for (offset, text) in lines.enumerated() {
      let line = last - lines.count + 1 + offset
      canvas.clearLine(line, from: 0)
      paintLine(text, line, style: style)
    }
  }

  private func paintLine(_ text: String, _ line: Int, style: TextStyle) {
    guard let layout else { return }
    canvas.put(
      TextWidth.fit(
        glyphs.spelled(TextWidth.singleLine(text)), width: layout.size.columns,
        ellipsis: glyphs.ellipsis),
      row: line, column: 0, style: style)
  }

  /// Draws a prompt and a line editor's text on the status line; returns the cursor position.
  private func paintField(prompt: String, field: LineEditor, layout: ScreenLayout)
    -> (row: Int, column: Int)
  {
    canvas.put(prompt, row: layout.statusLine, column: 0, style: .bold)
    let start = TextWidth.columns(prompt)
    let room = max(1, layout.size.columns - start - 1)
    // Keep the cursor in view: show the end of a draft longer than the field.
    let beforeCursor = TextWidth.singleLine(String(field.characters.prefix(field.cursor)))
    let text = TextWidth.singleLine(field.text)
    let skip = max(0, TextWidth.columns(beforeCursor) - room + 1)
    let shown = String(Self.dropColumns(skip, of: text))
    canvas.put(
      TextWidth.fit(shown, width: room, ellipsis: glyphs.ellipsis, pad: false),
      row: layout.statusLine, column: start, style: .underline)
    return (
      layout.statusLine,
      min(layout.size.columns - 1, start + TextWidth.columns(beforeCursor) - skip)
    )
  }

  /// Draws a prompt and the choices of a picker on the status line, the selected one reversed.
  private func paintPicker(
    prompt: String, choices: [String], selected: Int, layout: ScreenLayout
  ) {
    canvas.put(prompt, row: layout.statusLine, column: 0, style: .bold)
    var column = TextWidth.columns(prompt)
    for (index, choice) in choices.enumerated() {
      let text = TextWidth.fit(
        " \(glyphs.spelled(TextWidth.singleLine(choice))) ",
        width: max(0, layout.size.columns - column), ellipsis: glyphs.ellipsis, pad: false)
      canvas.put(
        text, row: layout.statusLine, column: column, style: index == selected ? .reverse : [])
      column += TextWidth.columns(text)
    }
  }

  private static func dropColumns(_ count: Int, of text: String) -> Substring {
    var dropped = 0
    var rest = Substring(text)
    while dropped < count, let first = rest.first {
      dropped += TextWidth.columns(of: first)
      rest = rest.dropFirst()
    }
    return rest
  }

  /// The context line: the focused key's description, type, default and allowed values.
  private func contextLine() -> String {
    // The header names the file; the reason goes last (it may be long and get cut).
    if let source = session.currentSource, let reason = source.unreadableReason {
      return (source.hasReadValues ? " Stale values: " : " No values read: ") + reason
    }
    guard session.state.pane == .rows, let row = session.focusedRow else {
      return session.currentSource.map { " \($0.title): \($0.location)" } ?? ""
    }
    var parts = [" \(row.name)"]
    if let problem = row.problem { return " \(row.name): \(problem); d removes it" }
    // An empty doc comment (`///` alone) says nothing: no empty part between two dots.
    if let summary = row.summary, !summary.allSatisfy(\.isWhitespace) { parts.append(summary) }
    if let defaultValue = row.defaultValue { parts.append("default: \(defaultValue)") }
    if let allowed = row.editing.allowedValues {
      parts.append("allowed: " + allowed.joined(separator: ", "))
    } else if case .text(let format, _) = row.editing,
      case .integer(let name, let bits, let signed) = format.base
    {
      parts.append(Self.range(name: name, bits: bits, signed: signed))
    }
    if row.key == nil { parts.append("not stored (@ObservableOnly)") }
    if let layerText = row.layerText { parts.append(layerText) }
    if let key = row.key, let source = session.currentSource,
      let entry = session.changeLog.latest(key: key, source: ObjectIdentifier(source))
    {
      // Before the description: a long one is cut at the edge.
      parts.insert(
        "changed \(ChangeHistory.clockTime(entry.time)) by \(entry.change.origin)", at: 1)
    }
    if case .readOnly(let reason) = row.editing, row.key != nil { parts.append(reason) }
    return parts.joined(separator: " · ")
  }

  private static func range(name: String, bits: Int, signed: Bool) -> String {
    let low = signed ? "-" + String(UInt64(1) << (bits - 1)) : "0"
    let high = signed ? String((UInt64(1) << (bits - 1)) - 1) : String(UInt64.max >> (64 - bits))
    return "\(name) \(low)…\(high)"
  }
}

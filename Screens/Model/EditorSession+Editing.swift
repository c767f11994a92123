import Foundation
import ObservableDefaultsCore

/// Changing values: toggles, choices, the line editor, resets and undo. Every change goes
/// through the row's source (typed, validated there) and pushes an ``EditorSession/UndoStep``.
extension EditorSession {
  func activateRow(toggling: Bool) -> Damage {
    guard let source = currentSource, let row = focusedRow else { return Damage() }
    let index = state.rowIndex
    // A dictionary or array of a raw property list opens or closes, also with --readonly.
    // The focus stays on the container's line (the lines above it do not move): a key typed
    // in the same burst moves on from there, not from the row focused before the burst.
    if let tree = source as? any ExpandableRowSource, tree.toggleExpansion(at: index) {
      return Damage(layout: true, focusPlaced: true)
    }
    guard let refusal = refusal(for: row) else {
      switch row.editing {
      case .toggle(let flag) where toggling:
        return storeChoice(flag ? 0 : 1, at: index)
      case .choice where toggling:
        return cycleChoice(by: 1) ?? Damage()
      case .toggle, .choice:
        return startPicking(row.editing, at: index)
      case .text(let format, let text):
        if toggling {
          state.message = .init(
            text: "Space toggles Bool values; Enter edits \(row.name)", isError: false)
        } else {
          state.mode = .editing(row: index, format: format, field: LineEditor(text: text))
          state.changedElsewhereWhileEditing = nil
        }
      case .readOnly:
        break
      }
      return Damage(rows: [index])
    }
    state.message = refusal
    return Damage(rows: [index])
  }

  /// Why `row` cannot be changed now, as an error message, or nil when it can. A refusal
  /// because the source's file cannot be read goes once it reads again.
  func refusal(for row: PropertyRow) -> EditorState.Message? {
    func error(_ text: String, unreadableSource: Int? = nil) -> EditorState.Message {
      .init(text: text, isError: true, unreadableSource: unreadableSource)
    }
    if isReadOnly { return error("\(row.name) is not changed: the editor runs with --readonly") }
    if let source = currentSource, let reason = source.unreadableReason {
      return error(
        "\(row.name) not saved: \(source.title) is unreadable (\(reason))",
        unreadableSource: state.sourceIndex)
    }
    if case .readOnly(let reason) = row.editing {
      return error("\(row.name) is read-only: \(reason)")
    }
    return nil
  }

  /// Drops the status message about a source's unreadable file once that source reads again
  /// (its file parses): the message would otherwise stay until the next key.
  func dropMessageOfReadableSource() {
    guard let index = state.message?.unreadableSource,
      !sources.indices.contains(index) || sources[index].unreadableReason == nil
    else { return }
    state.message = nil
  }

  /// Stores the case `offset` steps from the current one of an enumeration row; nil when the
  /// focused row is not one (the key then does its pane job).
  func cycleChoice(by offset: Int) -> Damage? {
    guard state.pane == .rows, let row = focusedRow,
      case .choice(let cases, let selected) = row.editing, !cases.isEmpty
    else { return nil }
    let index = state.rowIndex
    if let refusal = refusal(for: row) {
      state.message = refusal
      return Damage(rows: [index])
    }
    return storeChoice(((selected ?? -1) + offset + cases.count) % cases.count, at: index)
  }

  func handleEditing(
    _ key: KeyPress, row index: Int, format: TextValueFormat, field: inout LineEditor
  ) -> Damage {
    if key == KeyMap.externalEditorKey {
      return editExternally(row: index, format: format, draft: field.text)
    }
    switch field.handle(key) {
    case .editing:
      state.mode = .editing(row: index, format: format, field: field)
    case .cancel:
      state.mode = .browsing
      state.message = nil
      state.changedElsewhereWhileEditing = nil
    case .commit:
      guard let source = currentSource, index < source.rowCount else {
        state.mode = .browsing
        return Damage()
      }
      let row = source.row(at: index)
      if state.changedElsewhereWhileEditing == index {
        // Never overwrite another writer's value blindly: ask once.
        state.changedElsewhereWhileEditing = nil
        state.mode = .editing(row: index, format: format, field: field)
        state.message = .init(
          text: "Changed elsewhere to \(row.value): Enter keeps yours, Esc takes theirs",
          isError: false)
        return Damage(rows: [index])
      }
      do {
        let value = try format.parse(field.text)
        // A value the source refuses (JSON of the wrong shape) keeps the draft open to fix.
        if change(
          row, at: index, label: "edit \(row.name)", { try source.setValue(value, at: index) })
        {
          state.mode = .browsing
          return written(index)
        }
      } catch {
        state.message = .init(
          text: "\(row.name) (\(row.typeName)) not changed: \(error)", isError: true)
      }
    }
    return Damage(rows: [index])
  }

  /// Hands `draft` to ``EditorSession/externalEditor`` (JSON pretty-printed over lines), then
  /// checks and stores what comes back as Enter would; text that is refused stays in the field
  /// with the reason.
  func editExternally(row index: Int, format: TextValueFormat, draft: String) -> Damage {
    let isJSON = format.base == .json
    guard let edit = externalEditor else {
      state.message = .init(text: "No external editor here", isError: true)
      return Damage(rows: [index])
    }
    guard
      var text = edit(
        isJSON ? JSONValue.reformatted(draft, pretty: true) ?? draft : draft,
        isJSON ? "json" : "txt")
    else {
      state.mode = .editing(row: index, format: format, field: LineEditor(text: draft))
      state.message = .init(
        text: "The external editor ($VISUAL, $EDITOR, else vi) did not run; the draft stays",
        isError: true)
      return Damage(layout: true)
    }
    if text.hasSuffix("\n") { text.removeLast() }  // editors end the file with a newline
    if isJSON, let compact = JSONValue.reformatted(text, pretty: false) { text = compact }
    var field = LineEditor(text: text)
    state.mode = .editing(row: index, format: format, field: field)
    var damage = handleEditing(.enter, row: index, format: format, field: &field)
    damage.layout = true  // the terminal was the editor's: draw it all again
    return damage
  }

  func resetRow() -> Damage {
    guard let source = currentSource, let row = focusedRow else { return Damage() }
    let index = state.rowIndex
    if let refusal = refusal(for: row) {
      state.message = refusal
    } else {
      change(row, at: index, label: "reset \(row.name)") { try source.resetValue(at: index) }
      if state.message?.isError == false {
        state.message?.text =
          source.hasDefaults
          ? "Reset \(row.name) to its default \(row.defaultValue ?? "")"
          : "\(row.name) removed (a \(source.kind.rawValue) has no defaults; u puts it back)"
      }
      if !source.hasDefaults {
        // The key and its row are gone: the focus stays at the same place in the list.
        state.rowIndex = max(0, min(index, source.rowCount - 1))
        return Damage(layout: true)
      }
      return written(index)
    }
    return Damage(rows: [index])
  }

  func resetObject() -> Damage {
    guard let source = currentSource else { return Damage() }
    if isReadOnly {
      state.message = .init(text: "Nothing reset: the editor runs with --readonly", isError: true)
      return Damage()
    }
    var step = UndoStep(
      label: "reset \(source.title)", source: ObjectIdentifier(source), rows: [])
    var failures: [String] = []
    for index in 0..<source.rowCount {
      let row = source.row(at: index)
      guard row.isModified || row.problem != nil, row.key != nil,
        let snapshot = source.snapshot(at: index)
      else {
        continue
      }
      do {
        try source.resetValue(at: index)
        step.rows.append((index, snapshot))
      } catch {
        failures.append("\(row.name): \(error)")
      }
    }
    if !step.rows.isEmpty { undoSteps.append(step) }
    state.message =
      failures.isEmpty
      ? .init(
        text: "Reset \(step.rows.count) value(s) of \(source.title); u undoes", isError: false)
      : .init(text: "Not reset: " + failures.joined(separator: "; "), isError: true)
    return Damage(layout: true)
  }

  func undo() -> Damage {
    guard let step = undoSteps.popLast() else {
      state.message = .init(text: "Nothing to undo", isError: false)
      return Damage()
    }
    guard let sourceIndex = listedIndex(of: step.source) else {
      state.message = .init(text: "Could not undo \(step.label): no longer listed", isError: true)
      return Damage()
    }
    let source = sources[sourceIndex]
    do {
      for (index, snapshot) in step.rows.reversed() { try source.restore(snapshot, at: index) }
      state.message = .init(text: "Undid \(step.label)", isError: false)
    } catch {
      state.message = .init(text: "Could not undo \(step.label): \(error)", isError: true)
    }
    if sourceIndex != state.sourceIndex || step.rows.count != 1 {
      state.sourceIndex = sourceIndex
      state.rowIndex = step.rows.first?.index ?? 0
      return Damage(layout: true)
    }
    let old = state.rowIndex
    state.rowIndex = step.rows[0].index
    if case .storedUnder(let key, _) = step.rows[0].snapshot {
      // The key's row may have moved (or come back): follow the key, unless the row there is
      // still the key's or one inside it (a nested value of a tree).
      let here = focusedRow?.key
      if here != key && here?.hasPrefix(key + " / ") != true { refocus(onRowKeyed: key) }
      return Damage(rows: [old, state.rowIndex], focusPlaced: true)
    }
    return Damage(rows: [old, state.rowIndex])
  }

  /// The rows a write to the row at `index` changed: the row, and in a tree the containers
  /// above it (their values hold it). They are redrawn as this session's own change, never
  /// marked as changed elsewhere.
  func written(_ index: Int) -> Damage {
    guard let source = currentSource, index < source.rowCount,
      let key = source.row(at: index).key, key.contains(" / ")
    else { return Damage(rows: [index]) }
    let containers = (0..<source.rowCount).filter { other in
      source.row(at: other).key.map { key.hasPrefix($0 + " / ") } == true
    }
    return Damage(rows: Set(containers + [index]))
  }

  /// Runs `write` for the row at `index`, remembering what the row held for undo, and says in
  /// the status line what happened; returns whether the write succeeded.
  @discardableResult
  func change(
    _ row: PropertyRow, at index: Int, label: String, _ write: () throws -> Void
  ) -> Bool {
    guard let source = currentSource else { return false }
    let snapshot = source.snapshot(at: index)
    do {
      try write()
      if let snapshot {
        undoSteps.append(
          UndoStep(label: label, source: ObjectIdentifier(source), rows: [(index, snapshot)]))
      }
      let saved = index < source.rowCount ? source.row(at: index).value : "(removed)"
      state.message =
        row.key == nil
        ? .init(text: "Set \(row.name) = \(saved) (@ObservableOnly: not stored)", isError: false)
        : .init(text: "Saved \(row.name) = \(saved)", isError: false)
      return true
    } catch let conflict as PropertyListConflictError {
      let then = if case .editing = state.mode { "Esc, then r" } else { "r" }
      state.message = .init(
        text: "\(row.name) not saved: \(conflict.file.lastPathComponent) changed on disk since it "
          + "was loaded (\(conflict.keys.joined(separator: ", "))); \(then) reloads",
        isError: true)
      return false
    } catch {
      state.message = .init(
        text: "\(row.name) (\(row.typeName)) not changed: \(error)", isError: true)
      return false
    }
  }
}

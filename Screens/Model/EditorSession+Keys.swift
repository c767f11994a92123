import Foundation

/// Keys and array elements of a raw suite (a ``KeyEditingRowSource``): `a` adds a key or an
/// element, `R` renames a key; each change can be undone.
extension EditorSession {
  /// Opens the prompt for a new key or element (`adding`) or a new name.
  func startPrompt(adding: Bool) -> Damage {
    guard state.pane == .rows, let source = currentSource else { return Damage() }
    guard source is any KeyEditingRowSource else {
      state.message = .init(
        text: "\(source.title) has a fixed set of keys: a and R work in raw suites and files",
        isError: false)
      return Damage()
    }
    if isReadOnly {
      state.message = .init(text: "Nothing added: the editor runs with --readonly", isError: true)
      return Damage()
    }
    let index = state.rowIndex
    let row = focusedRow
    // An element of an array, or an open array: a new element; anything else: a new key.
    let inArray =
      row.map { row in
        row.name.trimmingCharacters(in: .whitespaces).hasPrefix("[")
          || (row.typeName == "Array" && row.name.hasSuffix("▾"))
      } ?? false
    let prompt: EditorState.Prompt =
      adding ? (inArray && row != nil ? .newElement(row: index) : .newKey) : .newName(row: index)
    let text = if case .newName = prompt { row?.key ?? "" } else { "" }
    state.mode = .prompting(prompt, field: LineEditor(text: text))
    return Damage(rows: [index])
  }

  /// The prompt's text for the status line.
  func promptText(_ prompt: EditorState.Prompt) -> String {
    switch prompt {
    case .newKey: " New key of \(currentSource?.title ?? "") (key [-type] value): "
    case .newName: " Rename \(focusedRow?.name ?? "") to: "
    case .newElement: " Add to \(focusedRow?.name ?? "") ([-type] value): "
    }
  }

  func handlePrompt(_ key: KeyPress, prompt: EditorState.Prompt, field: inout LineEditor)
    -> Damage
  {
    switch field.handle(key) {
    case .editing:
      state.mode = .prompting(prompt, field: field)
      return Damage(rows: [state.rowIndex])
    case .cancel:
      state.mode = .browsing
      return Damage(rows: [state.rowIndex])
    case .commit:
      break
    }
    guard let source = currentSource as? any KeyEditingRowSource else {
      state.mode = .browsing
      return Damage()
    }
    do {
      let keys: [String]
      let write: () throws -> Void
      switch prompt {
      case .newKey:
        let (key, value) = try TypedEntry.entry(of: field.text)
        keys = [key]
        write = { try source.addKey(key, value: value) }
      case .newName(let row):
        let old = source.topLevelKey(at: row)
        let new = field.text.trimmingCharacters(in: .whitespaces)
        keys = [old, new]
        write = { try source.renameKey(at: row, to: new) }
      case .newElement(let row):
        let value = try TypedEntry.value(of: field.text)
        keys = [source.topLevelKey(at: row)]
        write = { try source.appendElement(value, at: row) }
      }
      let before = keys.map {
        (state.rowIndex, RowSnapshot.storedUnder(key: $0, value: source.storedValue(forKey: $0)))
      }
      try write()
      undoSteps.append(
        UndoStep(label: field.text, source: ObjectIdentifier(source), rows: before))
      state.mode = .browsing
      state.message = .init(
        text: "Saved \(field.text) in \(source.title); u undoes", isError: false)
      if let last = keys.last { refocus(onRowKeyed: last) }
      return Damage(layout: true, focusPlaced: true)
    } catch {
      state.message = .init(text: "Not saved: \(error)", isError: true)
      return Damage(rows: [state.rowIndex])
    }
  }
}

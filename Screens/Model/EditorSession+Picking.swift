import ObservableDefaultsCore

/// The values of a `Bool` or an enumeration row, picked from a set: Space and ← → store the
/// next or previous one at once, Enter opens a picker on the current one (← → Space move, Enter
/// stores, Esc cancels). Both store through ``storeChoice(_:at:)``.
extension EditorSession {
  /// Opens the picker of the focused row, on its current value.
  func startPicking(_ editing: RowEditing, at index: Int) -> Damage {
    guard let (choices, selected) = editing.choices else { return Damage() }
    state.mode = .picking(
      row: index, choices: choices.map { $0 ?? "nil" }, selected: selected ?? 0)
    state.message = nil
    return Damage(rows: [index])
  }

  func handlePicking(_ key: KeyPress, row index: Int, choices: [String], selected: Int)
    -> Damage
  {
    let step: Int? =
      switch key {
      case .left, .up, .character("h"), .character("k"): -1
      case .right, .down, .character("l"), .character("j"), .character(" "): 1
      default: nil
      }
    if let step {
      let next = (selected + step + choices.count) % choices.count
      state.mode = .picking(row: index, choices: choices, selected: next)
      return Damage(rows: [index])
    }
    switch key {
    case .escape:
      state.mode = .browsing
      state.message = nil
    case .enter:
      state.mode = .browsing
      guard let source = currentSource, index < source.rowCount,
        let current = source.row(at: index).editing.choices?.selected, current != selected
      else {
        state.message = .init(text: "Nothing changed", isError: false)
        return Damage(rows: [index])
      }
      return storeChoice(selected, at: index)
    default:
      break
    }
    return Damage(rows: [index])
  }

  /// Stores choice `choice` of the row at `index` (see ``RowEditing/choices``): the flag of a
  /// `Bool`, the case of an enumeration.
  func storeChoice(_ choice: Int, at index: Int) -> Damage {
    guard let source = currentSource, index < source.rowCount else { return Damage() }
    let row = source.row(at: index)
    let (value, label): (Any, String)
    switch row.editing {
    case .toggle: (value, label) = (choice == 1, "toggle \(row.name)")
    case .choice(let cases, _):
      (value, label) = (
        EnumerationCase(rawText: cases[choice]), "\(row.name) = \(cases[choice] ?? "nil")"
      )
    case .text, .readOnly: return Damage(rows: [index])
    }
    change(row, at: index, label: label) { try source.setValue(value, at: index) }
    return written(index)
  }
}

extension RowEditing {
  /// The values picked from (`false`, `true` for a `Bool`; an enumeration's cases, `nil` for
  /// the empty optional) and the current one's index; nil for a value typed or read-only.
  var choices: (values: [String?], selected: Int?)? {
    switch self {
    case .toggle(let flag): (["false", "true"], flag ? 1 : 0)
    case .choice(let cases, let selected): (cases, selected)
    case .text, .readOnly: nil
    }
  }
}

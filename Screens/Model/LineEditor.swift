/// A one-line text field: the draft of a value being edited and its cursor.
struct LineEditor: Equatable {
  /// What a key did to the field.
  enum Outcome: Equatable {
    case editing
    /// Enter: the caller validates and stores ``LineEditor/text``.
    case commit
    /// Esc: the caller drops the draft.
    case cancel
  }

  private(set) var characters: [Character]
  /// The insertion point, 0…characters.count.
  private(set) var cursor: Int

  init(text: String) {
    characters = Array(text)
    cursor = characters.count
  }

  /// The draft.
  var text: String { String(characters) }

  /// Applies `key` to the field.
  mutating func handle(_ key: KeyPress) -> Outcome {
    switch key {
    case .enter: return .commit
    case .escape: return .cancel
    case .character(let character): characters.insert(character, at: cursor); cursor += 1
    case .backspace where cursor > 0: cursor -= 1; characters.remove(at: cursor)
    case .delete where cursor < characters.count: characters.remove(at: cursor)
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(characters.count, cursor + 1)
    case .home: cursor = 0
    case .end: cursor = characters.count
    default: break
    }
    return .editing
  }
}

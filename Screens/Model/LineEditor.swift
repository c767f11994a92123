/// A one-line text field: the draft of a value being edited and its cursor, with the line
/// editing keys of a shell (readline's emacs mode).
///
/// Keys: ← → (C-b C-f) move, Home End (C-a C-e) jump, M-b M-f move by word, Backspace Delete
/// (C-d) erase a character, C-u C-k erase to the start or the end, C-w M-Backspace the word
/// before the cursor, M-d the word after it. Other control keys are ignored: they never become
/// text.
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

  /// Whether the field has a use for `character` typed with Meta (M-b M-f M-d M-Backspace).
  static func usesMeta(_ character: Character) -> Bool {
    ["b", "f", "d", "\u{7F}", "\u{8}"].contains(character)
  }

  /// Applies `key` to the field.
  mutating func handle(_ key: KeyPress) -> Outcome {
    switch key {
    case .enter: return .commit
    case .escape: return .cancel
    case .character(let character) where character.isControl:
      handleControl(character)
    case .character(let character):
      characters.insert(character, at: cursor)
      cursor += 1
    case .backspace: erase(from: cursor - 1, to: cursor)
    case .delete: erase(from: cursor, to: cursor + 1)
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(characters.count, cursor + 1)
    case .home: cursor = 0
    case .end: cursor = characters.count
    case .meta("b"): cursor = wordStart(before: cursor)
    case .meta("f"): cursor = wordEnd(after: cursor)
    case .meta("d"): erase(from: cursor, to: wordEnd(after: cursor))
    case .meta("\u{7F}"), .meta("\u{8}"): erase(from: wordStart(before: cursor), to: cursor)
    default: break
    }
    return .editing
  }

  private mutating func handleControl(_ character: Character) {
    switch character {
    case "\u{1}": cursor = 0  // C-a
    case "\u{5}": cursor = characters.count  // C-e
    case "\u{2}": cursor = max(0, cursor - 1)  // C-b
    case "\u{6}": cursor = min(characters.count, cursor + 1)  // C-f
    case "\u{4}": erase(from: cursor, to: cursor + 1)  // C-d
    case "\u{15}": erase(from: 0, to: cursor)  // C-u
    case "\u{B}": erase(from: cursor, to: characters.count)  // C-k
    case "\u{17}": erase(from: wordStart(before: cursor), to: cursor)  // C-w
    default: break
    }
  }

  /// Removes the characters from `start` up to `end` (clamped to the text); the cursor goes to
  /// where they were.
  private mutating func erase(from start: Int, to end: Int) {
    let start = max(0, start)
    let end = min(characters.count, end)
    guard start < end else { return }
    characters.removeSubrange(start..<end)
    cursor = start
  }

  /// The start of the word before `position`, skipping the separators before it (as M-b does).
  private func wordStart(before position: Int) -> Int {
    var index = position
    while index > 0, !characters[index - 1].isWordPart { index -= 1 }
    while index > 0, characters[index - 1].isWordPart { index -= 1 }
    return index
  }

  /// The end of the word after `position`, skipping the separators after it (as M-f does).
  private func wordEnd(after position: Int) -> Int {
    var index = position
    while index < characters.count, !characters[index].isWordPart { index += 1 }
    while index < characters.count, characters[index].isWordPart { index += 1 }
    return index
  }
}

extension Character {
  /// A C0 control or DEL: a key that is not text.
  fileprivate var isControl: Bool {
    unicodeScalars.count == 1
      && (unicodeScalars.first!.value < 0x20 || unicodeScalars.first!.value == 0x7F)
  }

  /// A letter or digit: what a word is made of for M-b, M-f and C-w.
  fileprivate var isWordPart: Bool { isLetter || isNumber }
}

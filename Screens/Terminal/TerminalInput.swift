import CNcursesW

/// What curses hands the editor for one read: a key it decoded with the terminal's terminfo, or
/// a character (a Unicode scalar value; an escape sequence terminfo does not list arrives as its
/// characters, Esc first).
enum TerminalInput: Equatable, Sendable {
  case functionKey(Int32)
  case character(UInt32)
}

/// Turns what curses read into keys, decoding the escape sequences curses did not: a terminal
/// whose `TERM` names another terminal's terminfo (tmux with `TERM=xterm-256color` sends Home as
/// `Esc [ 1 ~` where xterm's terminfo lists `Esc O H`) must not have one key read as Escape and
/// other keys. The forms are ECMA-48's: CSI (`Esc [` or U+009B, parameter bytes 0x30–0x3F,
/// intermediate bytes 0x20–0x2F, a final byte 0x40–0x7E), SS3 (`Esc O` and one character) and
/// OSC (`Esc ]` up to BEL or `Esc \`). A sequence that is no key of the editor, or is cut off,
/// becomes one ``KeyPress/other(_:)`` with code -1, which does nothing.
enum TerminalInputDecoder {
  /// The code of ``KeyPress/other(_:)`` for an escape sequence that is no key of the editor.
  static let unknownSequence: Int32 = -1

  private static let escape: UInt32 = 27
  private static let controlSequenceIntroducer: UInt32 = 0x9B

  /// The keys of `input`, in order.
  static func keys(from input: [TerminalInput]) -> [KeyPress] {
    var keys: [KeyPress] = []
    var index = input.startIndex
    func character(at position: Int) -> UInt32? {
      guard position < input.endIndex, case .character(let value) = input[position] else {
        return nil
      }
      return value
    }
    while index < input.endIndex {
      switch input[index] {
      case .functionKey(let code):
        keys.append(functionKey(code))
        index += 1
      case .character(controlSequenceIntroducer):
        let (key, next) = controlSequence(from: index + 1, character)
        keys.append(key)
        index = next
      case .character(escape):
        switch character(at: index + 1) {
        case UInt32(UInt8(ascii: "[")):
          let (key, next) = controlSequence(from: index + 2, character)
          keys.append(key)
          index = next
        case UInt32(UInt8(ascii: "O")) where character(at: index + 2) != nil:
          keys.append(singleShift(character(at: index + 2)!))
          index += 3
        case UInt32(UInt8(ascii: "]")):
          index = endOfOperatingSystemCommand(from: index + 2, character)
          keys.append(.other(unknownSequence))
        case let next? where next != escape:
          keys.append(Unicode.Scalar(next).map { .meta(Character($0)) } ?? .escape)
          index += 2
        default:
          keys.append(.escape)
          index += 1
        }
      case .character(let value):
        keys.append(characterKey(value))
        index += 1
      }
    }
    return keys
  }

  /// The key of the CSI sequence whose bytes after the introducer start at `start`, and where
  /// the input goes on.
  private static func controlSequence(from start: Int, _ character: (Int) -> UInt32?)
    -> (KeyPress, Int)
  {
    var parameters = ""
    var position = start
    while let value = character(position) {
      position += 1
      switch value {
      case 0x30...0x3F, 0x20...0x2F:
        parameters.unicodeScalars.append(Unicode.Scalar(UInt8(value)))
      case 0x40...0x7E:
        return (controlSequenceKey(parameters: parameters, final: UInt8(value)), position)
      default:
        return (.other(unknownSequence), position - 1)
      }
    }
    return (.other(unknownSequence), position)
  }

  /// The key of a CSI sequence: cursor keys (`Esc [ A`, with modifiers `Esc [ 1 ; 5 A`), Home and
  /// End (`H`, `F`, `1~`, `4~`, `7~`, `8~`), Delete (`3~`), Page Up and Down (`5~`, `6~`),
  /// Shift-Tab (`Z`).
  private static func controlSequenceKey(parameters: String, final: UInt8) -> KeyPress {
    let first = parameters.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
    switch (Character(Unicode.Scalar(final)), first) {
    case ("A", _): return .up
    case ("B", _): return .down
    case ("C", _): return .right
    case ("D", _): return .left
    case ("H", _): return .home
    case ("F", _): return .end
    case ("Z", _): return .tab
    case ("~", "1"), ("~", "7"): return .home
    case ("~", "4"), ("~", "8"): return .end
    case ("~", "3"): return .delete
    case ("~", "5"): return .pageUp
    case ("~", "6"): return .pageDown
    default: return .other(unknownSequence)
    }
  }

  /// The key of `Esc O` and `value` (the keypad's application mode).
  private static func singleShift(_ value: UInt32) -> KeyPress {
    switch value {
    case 0x41: .up
    case 0x42: .down
    case 0x43: .right
    case 0x44: .left
    case 0x48: .home
    case 0x46: .end
    case 0x4D: .enter
    default: .other(unknownSequence)
    }
  }

  /// Where the input goes on after an OSC string that starts at `start`: after its BEL or
  /// `Esc \`, or at the end.
  private static func endOfOperatingSystemCommand(from start: Int, _ character: (Int) -> UInt32?)
    -> Int
  {
    var position = start
    while let value = character(position) {
      if value == 7 { return position + 1 }
      if value == escape, character(position + 1) == UInt32(UInt8(ascii: "\\")) {
        return position + 2
      }
      position += 1
    }
    return position
  }

  /// The key of a function key code curses decoded.
  private static func functionKey(_ code: Int32) -> KeyPress {
    switch code {
    case KEY_UP: .up
    case KEY_DOWN: .down
    case KEY_LEFT: .left
    case KEY_RIGHT: .right
    case KEY_PPAGE: .pageUp
    case KEY_NPAGE: .pageDown
    case KEY_HOME: .home
    case KEY_END: .end
    case KEY_ENTER: .enter
    case KEY_BACKSPACE: .backspace
    case KEY_DC: .delete
    case KEY_RESIZE: .resize
    case KEY_BTAB: .tab
    default: .other(code)
    }
  }

  /// The key of a character outside an escape sequence.
  private static func characterKey(_ value: UInt32) -> KeyPress {
    switch value {
    case 10, 13: .enter
    case 27: .escape
    case 9: .tab
    case 8, 127: .backspace
    default:
      Unicode.Scalar(value).map { .character(Character($0)) } ?? .other(Int32(bitPattern: value))
    }
  }
}

import Testing

@testable import SettingsEditor

/// Escape sequences that curses did not decode (the terminal's keys are not those of the
/// terminfo `TERM` names) are one key each, never Escape followed by other keys.
@Suite struct TerminalInputDecoderTests {
  func keys(_ text: String) -> [KeyPress] {
    TerminalInputDecoder.keys(from: text.unicodeScalars.map { .character($0.value) })
  }

  @Test(arguments: [
    ("\u{1b}[1~", KeyPress.home), ("\u{1b}[4~", .end), ("\u{1b}[7~", .home), ("\u{1b}[8~", .end),
    ("\u{1b}[H", .home), ("\u{1b}[F", .end), ("\u{1b}OH", .home), ("\u{1b}OF", .end),
    ("\u{1b}[A", .up), ("\u{1b}OB", .down), ("\u{1b}[1;5C", .right), ("\u{1b}[1;2D", .left),
    ("\u{1b}[3~", .delete), ("\u{1b}[5~", .pageUp), ("\u{1b}[6~", .pageDown), ("\u{1b}[Z", .tab),
    ("\u{9b}A", .up), ("\u{1b}OM", .enter),
  ])
  func aKeysSequenceIsThatKey(sequence: String, key: KeyPress) {
    #expect(keys(sequence) == [key])
  }

  @Test func sequencesThatAreNoKeyAreOneKeyThatDoesNothing() {
    let unknown = KeyPress.other(TerminalInputDecoder.unknownSequence)
    #expect(keys("\u{1b}[<0;10;5M") == [unknown], "a mouse report")
    #expect(keys("\u{1b}[12;40R") == [unknown], "a cursor position report")
    #expect(keys("\u{1b}]0;title\u{07}x") == [unknown, .character("x")], "an OSC string")
    #expect(keys("\u{1b}]0;t\u{1b}\\y") == [unknown, .character("y")], "ended by ST")
    #expect(keys("\u{1b}[99999999~") == [unknown])
    #expect(keys("\u{1b}[") == [unknown], "cut off")
    #expect(keys("\u{1b}[1\u{7}") == [unknown, .character("\u{7}")], "broken by a control")
  }

  @Test func escapeAloneMetaAndTextStayWhatTheyWere() {
    #expect(keys("\u{1b}") == [.escape])
    #expect(keys("\u{1b}x") == [.meta("x")])
    #expect(keys("\u{1b}\u{1b}[A") == [.escape, .up])
    #expect(keys("\u{1b}O") == [.meta("O")])
    #expect(keys("a\u{1b}[1~b\r") == [.character("a"), .home, .character("b"), .enter])
    #expect(
      TerminalInputDecoder.keys(from: [.functionKey(0o402), .character(0xE9)]) == [
        .down, .character("é"),
      ])
  }
}

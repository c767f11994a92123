import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// Issue 12, item 4: the verbs print keys, values, suite names and messages with every
/// unprintable character escaped, and export XML and JSON that readers accept.
@Suite(.serialized) struct CommandLineEscapingTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  /// Window-title OSC, BEL, clear screen, C1 CSI, DEL, BS, CR, a right-to-left override and a
  /// zero-width space.
  static let hostile = "a\u{1b}]0;title\u{07}b\u{1b}[2J\u{9b}c\u{7f}\u{08}\r\u{202e}d\u{200b}e"
  static let hostileEscaped =
    #"a\u{1b}]0;title\u{7}b\u{1b}[2J\u{9b}c\u{7f}\u{8}\r\u{202e}d\u{200b}e"#

  /// Whether `text` holds nothing but printable characters and newlines.
  private func isClean(_ text: String) -> Bool {
    !text.unicodeScalars.contains { $0 != "\n" && TerminalText.needsEscape($0) }
  }

  /// Writes `values` as the binary suite `suite`: only a binary suite holds every character
  /// (an XML one refuses those XML 1.0 cannot hold).
  private func install(_ values: [String: Any], suite: String) throws {
    var written: PropertyListSnapshot?
    try PropertyListFile(url: editor.preferences.appendingPathComponent(suite + ".plist"))
      .update(known: &written) { document in
        document = PropertyListDocument(values: values, format: .binary)
        return true
      }
  }

  @Test func readDomainsAndErrorsEscapeEveryUnprintableCharacter() throws {
    let suite = "esc\u{1b}[2J"
    try install(["plain": Self.hostile, Self.hostile: ["x": Self.hostile]], suite: suite)
    let value = try editor.run("read", suite, "plain")
    #expect(value.output == Self.hostileEscaped + "\n")
    let whole = try editor.run("read", suite)
    #expect(isClean(whole.output))
    #expect(whole.output.contains("\"\(Self.hostileEscaped)\" = "))
    let domains = try editor.run("domains")
    #expect(domains.output.contains(#"esc\u{1b}[2J"#))
    #expect(isClean(domains.output))
    // `find` names the suite in its header: it printed the name raw.
    let found = try editor.run("find", "title")
    #expect(isClean(found.output))
    #expect(found.output.contains(#"in domain 'esc\u{1b}[2J': "#), "\(found.output)")
    let missing = try editor.run("read", suite, "no\u{1b}]52;c;x\u{07}")
    #expect(missing.status == 1)
    #expect(isClean(missing.error))
    #expect(missing.error.contains(#"no\u{1b}]52;c;x\u{7}"#))
  }

  /// Tag characters (invisible letters that can carry hidden text) and noncharacters, which no
  /// font draws, are escaped too; other characters beyond the first plane are not.
  /// JSON export writes those beyond U+FFFF as two UTF-16 escapes, which read back as the same
  /// text (a `\uXXXXX` escape of five digits read back as another character and a digit).
  @Test func tagCharactersAndNoncharactersAreEscaped() throws {
    // (Swift's literals refuse the noncharacters: the text is made of scalars.)
    let scalars: [UInt32] = [
      0x61, 0xFFFE, 0x62, 0xFDD0, 0x63, 0xE0041, 0xE007F, 0x64, 0x10FFFF, 0x65, 0x1FFFE, 0x66,
      0x1F3B9, 0xFDF0,
      // Drawn as nothing (Default_Ignorable_Code_Point): Hangul fillers, the grapheme joiner, a
      // shorthand format control; an interlinear annotation; an emoji's variation selector kept.
      0x3164, 0x115F, 0xFFA0, 0x34F, 0x1BCA0, 0xFFF9, 0x67, 0xFFFB, 0x2764, 0xFE0F,
    ]
    let text = String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
    try install(["k": text], suite: "esc.tags")
    let value = try editor.run("read", "esc.tags", "k")
    #expect(
      value.output
        == #"a\u{fffe}b\u{fdd0}c\u{e0041}\u{e007f}d\u{10ffff}e\u{1fffe}f🎹\#u{FDF0}"#
        + #"\u{3164}\u{115f}\u{ffa0}\u{34f}\u{1bca0}\u{fff9}g\u{fffb}"# + "\u{2764}\u{FE0F}\n")
    let json = try editor.run("export", "esc.tags", "--json")
    #expect(isClean(json.output))
    #expect(json.output.contains(#"c\uDB40\uDC41\uDB40\uDC7Fd\uDBFF\uDFFFe"#), "\(json.output)")
    let parsed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    #expect(parsed?["k"] as? String == text)
  }

  /// JSON has no form for a real that is not finite: `export --json` refuses it in one line
  /// naming the key (it printed Foundation's error dump).
  @Test func jsonExportRefusesARealThatIsNotFinite() throws {
    try install(
      ["ok": 1, "r": ["x": [0.5, Double.nan] as [Any]] as [String: Any]], suite: "esc.nan")
    let result = try editor.run("export", "esc.nan", "--json")
    #expect(result.status == 65)
    #expect(
      result.error
        == "settings-editor: cannot export as JSON: r / x / [1] holds the real nan, which JSON "
        + "cannot hold; export as XML instead\n")
    // In a nested dictionary whose keys differ only in normalization (kept exact), too: it
    // printed Foundation's error dump.
    let exact: [PropertyListKey: Any] = [
      PropertyListKey("\u{E9}"): -Double.infinity, "e\u{301}": 1,
    ]
    try install(["r": exact], suite: "esc.nanexact")
    let nested = try editor.run("export", "esc.nanexact", "--json")
    #expect(nested.status == 65)
    #expect(
      nested.error
        == "settings-editor: cannot export as JSON: r / \u{E9} holds the real -inf, which JSON "
        + "cannot hold; export as XML instead\n")
    // Of several, the first in key order is named, whatever the dictionaries' own order.
    let keys = (0..<200).map { "k\($0)" }
    try install(
      Dictionary(uniqueKeysWithValues: keys.map { ($0, Double.infinity) })
        .merging(["b": ["c": Double.nan, "a": 1]]) { $1 }, suite: "esc.nanfirst")
    let first = try editor.run("export", "esc.nanfirst", "--json")
    #expect(
      first.error
        == "settings-editor: cannot export as JSON: b / c holds the real nan, which JSON "
        + "cannot hold; export as XML instead\n")
  }

  /// `.` and `..` are no suite names: a write made the hidden files `..plist` and `...plist`,
  /// which `domains` does not list.
  @Test(arguments: [".", ".."])
  func dotNamesAreRefusedAsSuiteNames(name: String) throws {
    let result = try editor.run("write", name, "k", "v")
    #expect(result.status == 64)
    #expect(result.error.hasPrefix("settings-editor: \"\(name)\" is not a suite name\n"))
    let files = try FileManager.default.contentsOfDirectory(atPath: editor.preferences.path)
    #expect(!files.contains(name + ".plist"), "\(files)")
  }

  @Test func jsonExportIsCleanAndReadsBackEqual() throws {
    let values: [String: Any] = ["plain": Self.hostile, Self.hostile: [Self.hostile, 1]]
    try install(values, suite: "esc.json")
    let result = try editor.run("export", "esc.json", "--json")
    #expect(result.status == 0)
    #expect(isClean(result.output))
    let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    #expect(propertyListValuesEqual(parsed, values))
  }

  @Test func xmlExportIsAcceptedByPlistlibOrRefusedForCharactersXMLCannotHold() throws {
    let printableInXML = "C1\u{9b}DEL\u{7f}RLO\u{202e}ZW\u{200b}CR\r"
    try install(["k": printableInXML, "tab\tkey": "x"], suite: "esc.xml")
    let result = try editor.run("export", "esc.xml")
    #expect(result.status == 0)
    #expect(isClean(result.output.replacingOccurrences(of: "\t", with: " ")))
    #expect(try plistlib(Data(result.output.utf8)) == "ok 2 " + Self.pythonRepr(printableInXML))

    try install(["k": Self.hostile], suite: "esc.refused")
    let refused = try editor.run("export", "esc.refused")
    #expect(refused.status == 65)
    #expect(refused.output.isEmpty)
    #expect(
      refused.error == "settings-editor: cannot export as XML: k holds U+001B, a character XML 1.0 "
        + "cannot hold; export with --json instead\n")
  }

  /// A suite that neither XML nor JSON can hold: each refusal says so (each named the other
  /// format, which refused in turn).
  @Test func aSuiteNeitherFormatHoldsIsRefusedByBothSayingSo() throws {
    try install(["k\u{1B}": Double.nan], suite: "esc.neither")
    let neither =
      "; the other export format cannot hold this suite either: copy its binary property-list "
      + "file instead\n"
    let xml = try editor.run("export", "esc.neither")
    #expect(xml.status == 65)
    #expect(
      xml.error == "settings-editor: cannot export as XML: k\\u{1b} holds U+001B, a character "
        + "XML 1.0 cannot hold" + neither)
    let json = try editor.run("export", "esc.neither", "--json")
    #expect(json.status == 65)
    #expect(
      json.error == "settings-editor: cannot export as JSON: k\\u{1b} holds the real nan, which "
        + "JSON cannot hold" + neither)
  }

  @Test func iterm2FixtureExportsToXMLThatPlistlibAccepts() throws {
    let url = editor.preferences.appendingPathComponent("iterm.plist")
    try FileManager.default.copyItem(
      at: TestPreferences.fixtures.appendingPathComponent("iterm2-xml.plist"), to: url)
    let result = try editor.run("export", "iterm")
    #expect(result.status == 0)
    #expect(try plistlib(Data(result.output.utf8)).hasPrefix("ok 81 "))
  }

  /// Python's repr of a string of ASCII and BMP characters, as `plistlib` checks print it.
  static func pythonRepr(_ text: String) -> String {
    "'"
      + text.unicodeScalars.map { scalar -> String in
        switch scalar.value {
        case 0x0D: return "\\r"
        case 0x20..<0x7F: return String(scalar)
        case 0..<0x100: return "\\x" + String(format: "%02x", scalar.value)
        default: return "\\u" + String(format: "%04x", scalar.value)
        }
      }.joined() + "'"
  }

  /// Parses `xml` with Python's `plistlib`: `ok <top-level count> <repr of key k>`, or Python's
  /// error.
  private func plistlib(_ xml: Data) throws -> String {
    let result = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import plistlib,sys\nd=plistlib.loads(sys.stdin.buffer.read())\nprint('ok', len(d), ascii(d.get('k', '')))",
      ],
      input: xml)
    return (result.output + result.error).trimmingCharacters(in: .newlines)
  }
}

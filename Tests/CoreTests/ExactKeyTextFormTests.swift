import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Issue 37: XML that is not in the plain form (comments, CDATA sections, references in keys,
/// processing instructions, a key held twice) and OpenStep text were handed to Foundation, whose
/// `String`-keyed dictionaries merge keys that differ only in Unicode normalization (`é` as
/// U+00E9 and as `e` U+0301): two keys for python's `plistlib`, CoreFoundation and the file. Our
/// readers keep them apart in every form, and a key held twice keeps the value met last, as
/// CoreFoundation (`CFDictionarySetValue` in `parseDictTag`) and `plistlib` do.
@Suite struct ExactKeyTextFormTests {
  private static let composed = PythonPlistlib.composed
  private static let decomposed = PythonPlistlib.decomposed

  private func read(_ text: String) throws -> PropertyListDocument {
    try PropertyListFile(url: URL(fileURLWithPath: "/nonexistent/x.plist"))
      .document(from: Data(text.utf8))
  }

  /// The XML text of a document whose top dictionary holds `entries`.
  private func xml(_ entries: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(entries)\n"
      + "</dict>\n</plist>\n"
  }

  /// Each non-plain form holding both forms of `é`, at the top and inside a dictionary value.
  static let forms: [String] = [
    "<!-- a comment --><key>\(composed)</key><string>c</string>"
      + "<key>\(decomposed)</key><string>d</string>",
    "<key>&#xE9;</key><string>c</string><key>e&#x301;</key><string>d</string>",
    "<key><![CDATA[\(composed)]]></key><string>c</string>"
      + "<key><![CDATA[\(decomposed)]]></key><string>d</string>",
    "<?pi?><key>\(composed)</key><string>c</string><key>\(decomposed)</key><string>d</string>",
    "<key>\(composed)</key><string>x</string><key>\(composed)</key><string>c</string>"
      + "<key>\(decomposed)</key><string>d</string>",
  ]

  @Test(arguments: forms)
  func everyXMLFormKeepsKeysThatDifferOnlyInNormalization(entries: String) throws {
    let nested = "<key>n</key><dict>\(entries)</dict>"
    let document = try read(xml(entries + nested))
    #expect(document.values.count == 3)
    #expect(document.values[PropertyListKey(Self.composed)] as? String == "c")
    #expect(document.values[PropertyListKey(Self.decomposed)] as? String == "d")
    let inner = try #require(document.values["n"] as? [PropertyListKey: Any])
    #expect(inner.count == 2)
    #expect(inner[PropertyListKey(Self.composed)] as? String == "c")
    #expect(inner[PropertyListKey(Self.decomposed)] as? String == "d")
  }

  /// A key held twice (exactly): the value met last, at the top and inside a value, as python's
  /// `plistlib` reads the same file.
  @Test func aKeyHeldTwiceKeepsTheValueMetLastAsPlistlibDoes() async throws {
    let text = xml(
      "<key>k</key><string>first</string><key>n</key><dict><key>a</key><integer>1</integer>"
        + "<key>a</key><integer>2</integer></dict><key>k</key><string>last</string>")
    let document = try read(text)
    #expect(document.values["k"] as? String == "last")
    #expect((document.values["n"] as? [String: Any])?["a"] as? Int == 2)
    try await withTemporaryFolder { folder in
      let url = folder.file("twice.plist")
      try Data(text.utf8).write(to: url)
      #expect(try PythonPlistlib.read(url) == "[('k', 'last'), ('n', {'a': 2})]")
    }
  }

  /// A write to a file in a non-plain form (here a comment; the file is encoded whole) keeps
  /// both forms and every other key exactly, as `plistlib` reads the result.
  @Test func aWriteToANonPlainFileKeepsEveryOtherKeyExact() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("commented.plist")
      try PythonPlistlib.write(
        [(Self.composed, "composed"), (Self.decomposed, "decomposed")], to: url, binary: false)
      var text = try String(contentsOf: url, encoding: .utf8)
      text = text.replacingOccurrences(of: "<dict>", with: "<dict>\n\t<!-- edited by hand -->")
      try Data(text.utf8).write(to: url)
      _ = try PropertyListFile(url: url).apply(["other": .set("x")])
      #expect(
        try PythonPlistlib.read(url)
          == "[('e\\u0301', 'decomposed'), ('other', 'x'), ('\\xe9', 'composed')]")
    }
  }

  /// Another writer leaves the file in a non-plain form (a comment): the re-read reads it whole,
  /// keys exact, and names exactly the key that changed.
  @Test func aReReadOfANonPlainFileKeepsKeysExact() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("suite.plist")
      try PythonPlistlib.write(
        [(Self.composed, "c"), (Self.decomposed, "d")], to: url, binary: false)
      let file = PropertyListFile(url: url)
      var known = try file.readSnapshot()
      let previous = try #require(known?.document.values)
      let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
        of: "<string>d</string>", with: "<string>d2</string><!-- changed -->")
      try Data(text.utf8).write(to: url)
      let changed = try file.rereadIfChanged(comparingTo: previous, since: &known)
      #expect(changed == [PropertyListKey(Self.decomposed)])
      #expect(known?.document.values[PropertyListKey(Self.composed)] as? String == "c")
      #expect(known?.document.values[PropertyListKey(Self.decomposed)] as? String == "d2")
    }
  }

  @Test func openStepKeepsKeysThatDifferOnlyInNormalization() throws {
    let document = try read(
      "// a comment\n{ \"\(Self.composed)\" = c; \"\(Self.decomposed)\" = d; "
        + "n = { \"\(Self.composed)\" = c; \"e\\U0301\" = d; }; }")
    #expect(document.format == .openStep)
    #expect(document.values.count == 3)
    #expect(document.values[PropertyListKey(Self.composed)] as? String == "c")
    #expect(document.values[PropertyListKey(Self.decomposed)] as? String == "d")
    let inner = try #require(document.values["n"] as? [PropertyListKey: Any])
    #expect(inner[PropertyListKey(Self.composed)] as? String == "c")
    #expect(inner[PropertyListKey(Self.decomposed)] as? String == "d")
  }

  /// OpenStep values as Foundation reads them: strings, escapes, data, arrays (a comma may end
  /// them), a strings file, and a key held twice keeping the value met last.
  @Test func openStepValuesAreFoundations() throws {
    let texts = [
      "{ a = \"x\\ty\\n\\101\\U00e9\"; b = (1, two, <0aff 10>,); c = {}; a2 = 'q\\'s'; d = /* c */ e; }",
      "\"k\" = \"v\";\nplain;\n\"k\" = \"w\";",
      "{ k = first; k = last; }",
      "  \n",
    ]
    for text in texts {
      let ours = try read(text).values.stringKeyed
      let foundation = try PropertyListSerialization.propertyList(
        from: Data(text.utf8), options: [], format: nil)
      #expect(propertyListValuesEqual(ours, foundation), "\(text): \(ours)")
    }
  }

  @Test func openStepTextFoundationWouldMisreadIsRefused() {
    for text in ["{ a = (x, {b = c ); }", "{ a = \"\\200\"; }", "{ a = \"\\UD800\"; }"] {
      #expect(throws: PropertyListError.self, "\(text)") { try read(text) }
    }
  }

  /// Text in another encoding is converted first, keys exact.
  @Test func otherEncodingsAreRead() throws {
    let utf16 =
      Data([0xFF, 0xFE]) + xml(
        "<key>\(Self.composed)</key><string>c</string>"
          + "<key>\(Self.decomposed)</key><string>d</string>"
      ).data(using: .utf16LittleEndian)!
    let fromUTF16 = try PropertyListFile(url: URL(fileURLWithPath: "/x")).document(from: utf16)
    #expect(fromUTF16.values.count == 2)
    let latin1 = xml("<key>caf\u{E9}</key><string>\u{E9}t\u{E9}</string>")
      .replacingOccurrences(of: "UTF-8", with: "ISO-8859-1").data(using: .isoLatin1)!
    let fromLatin1 = try PropertyListFile(url: URL(fileURLWithPath: "/x")).document(from: latin1)
    #expect(fromLatin1.values["caf\u{E9}"] as? String == "\u{E9}t\u{E9}")
    let unknown = Data(xml("").replacingOccurrences(of: "UTF-8", with: "x-klingon").utf8)
    #expect(throws: PropertyListError.self) {
      try PropertyListFile(url: URL(fileURLWithPath: "/x")).document(from: unknown)
    }
  }
}

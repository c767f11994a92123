import Foundation
import TestSupport
import Testing

/// `read <suite>` prints the old-style form `defaults read` prints: keys in the order of their
/// Unicode scalars (two keys that differ only in normalization are two lines), a plain word bare
/// and any other text quoted with `\` and `"` escaped and unprintable characters escaped.
@Suite struct ReadOutputTests {
  @Test func keysAreOrderedByScalarsAndTextIsQuotedUnlessAPlainWord() throws {
    let editor = try EditorProcess()
    let entries: [(String, String)] = [
      ("B", "<string>plain</string>"), ("a", "<string>two words</string>"),
      ("ab", #"<string>back\slash</string>"#), ("e\u{301}", "<string>quote&quot;d</string>"),
      ("\u{E9}", "<string></string>"), ("_.$/:-", "<string>tab\there</string>"),
      ("k&#1;", "<string>ctl&#7;x</string>"), ("z9", "<string>Grüße</string>"),
      ("Z", #"<string>a&quot;b\c&quot;</string>"#), ("1", "<string>ok-1.2/3:4$_</string>"),
      ("sp ace", "<string>\u{202E}nasty</string>"), ("emoji", "<string>🎹</string>"),
      (
        "nested",
        "<dict><key>b key</key><array><string>x y</string><string>p</string>"
          + "<dict><key>q&quot;</key><string>w</string></dict></array>"
          + "<key>a</key><true/></dict>"
      ),
    ]
    let body = entries.map { "<key>\($0.0)</key>\($0.1)" }.joined(separator: "\n")
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      \(body)
      </dict></plist>

      """.utf8
    ).write(to: editor.preferences.appendingPathComponent("quoting.plist"))
    let read = try editor.run("read", "quoting")
    #expect(read.status == 0)
    // Compared as bytes: `String`'s `==` takes "e\u{301}" and "\u{E9}" for one text.
    let (decomposed, composed) = ("e\u{301}", "\u{E9}")
    let expected = #"""
      {
          1 = ok-1.2/3:4$_;
          B = plain;
          Z = "a\"b\\c\"";
          _.$/:- = "tab\there";
          a = "two words";
          ab = "back\\slash";
          emoji = "🎹";
          "\#(decomposed)" = "quote\"d";
          "k\u{1}" = "ctl\u{7}x";
          nested = {
              a = 1;
              "b key" = (
                  "x y",
                  p,
                  {
                      "q\"" = w;
                  }
              );
          };
          "sp ace" = "\u{202e}nasty";
          z9 = "Grüße";
          "\#(composed)" = "";
      }

      """#
    #expect(Array(read.output.utf8) == Array(expected.utf8), "\(read.output)")
  }

  /// A message quoting a key, a value or a name shows it on the message's one line: a line
  /// break in a key typed on the command line, or held by a file, printed a line of its own
  /// (which could pass for another message).
  @Test func aLineBreakInAKeyIsEscapedInAMessage() throws {
    let editor = try EditorProcess()
    #expect(try editor.run("write", "breaks", "a", "x").status == 0)
    let missing = try editor.run("read", "breaks", "a\nsettings-editor: forged")
    #expect(missing.status == 1)
    #expect(
      missing.error
        == "settings-editor: the key a\\nsettings-editor: forged does not exist in suite breaks\n")
    let usage = try editor.run("read")
    #expect(usage.status == 64)
    #expect(usage.error.split(separator: "\n").count == 3, "\(usage.error)")
  }
}

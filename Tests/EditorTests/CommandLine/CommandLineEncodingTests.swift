import Foundation
import TestSupport
import Testing

/// Issue 20: an argument that is not UTF-8 is refused with exit 65 naming it, never read as the
/// name with U+FFFD in place of its bytes.
@Suite(.serialized) struct CommandLineEncodingTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  @Test(arguments: [
    (["write", "enc.s", #"k\377"#, "v"], #"the key (argument 3) is not valid UTF-8: k\xFF"#),
    (
      ["write", "enc.s", "k", "-array", "a", #"\303\251\303"#],
      #"the value (argument 6) is not valid UTF-8: é\xC3"#
    ),
    (
      ["write", #"enc\200"#, "k", "v"], #"the suite name (argument 2) is not valid UTF-8: enc\x80"#
    ),
    (
      ["rename", "enc.s", "k", #"n\376w"#], #"the new key (argument 4) is not valid UTF-8: n\xFEw"#
    ),
    (
      ["read", "enc.s", #"\355\240\200"#], #"the key (argument 3) is not valid UTF-8: \xED\xA0\x80"#
    ),
    (["delete", "enc.s", #"\377"#], #"the key (argument 3) is not valid UTF-8: \xFF"#),
    (["find", #"w\377"#], #"the search word (argument 2) is not valid UTF-8: w\xFF"#),
    (
      ["read", #"/tmp/f\377.plist"#], #"the file (argument 2) is not valid UTF-8: /tmp/f\xFF.plist"#
    ),
    ([#"./f\377.plist"#], #"the file (argument 1) is not valid UTF-8: ./f\xFF.plist"#),
    (
      ["export", "enc.s", #"/tmp/out\377"#],
      #"the output file (argument 3) is not valid UTF-8: /tmp/out\xFF"#
    ),
    (["write", "enc.s", #"k\377"#], #"argument 3 is not valid UTF-8: k\xFF"#),
  ])
  func anArgumentThatIsNotUTF8Exits65NamingIt(arguments: [String], message: String) throws {
    let result = try editor.run(printf: arguments)
    #expect(result.status == 65, "\(arguments): \(result.error)")
    #expect(result.error == "settings-editor: \(message)\n")
    #expect(result.output == "")
    #expect(try FileManager.default.contentsOfDirectory(atPath: editor.preferences.path) == [])
  }

  @Test func validUTF8ArgumentsStillWork() throws {
    #expect(try editor.run(printf: ["write", "enc.s", #"cl\303\251"#, "v"]).status == 0)
    #expect(try editor.run("read", "enc.s", "clé").output == "v\n")
  }
}

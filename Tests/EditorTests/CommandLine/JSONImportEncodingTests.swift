import Foundation
import TestSupport
import Testing

/// `import --json` of UTF-16 and UTF-32 text (which `JSONSerialization` and python's `json`
/// read) imports its keys; it found no key in such text and imported an empty suite, removing
/// every key, with exit 0.
@Suite struct JSONImportEncodingTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  static let json = #"{"color": "red", "n": 5, "\u00e9": {"e\u0301": true}}"#

  @Test(arguments: [
    (String.Encoding.utf16LittleEndian, [UInt8]([0xFF, 0xFE])),
    (.utf16BigEndian, []), (.utf16LittleEndian, []),
    (.utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00]), (.utf32BigEndian, []),
  ])
  func utf16AndUTF32TextIsImported(encoding: String.Encoding, mark: [UInt8]) throws {
    _ = try editor.run("write", "enc.json", "stale", "x")
    let input = Data(mark) + (try #require(Self.json.data(using: encoding)))
    let result = try editor.run(["import", "enc.json", "-", "--json"], input: input)
    #expect(result.status == 0, "\(result.error)")
    #expect(
      try editor.run("export", "enc.json", "--json").output == """
        {
          "color" : "red",
          "n" : 5,
          "\u{E9}" : {
            "e\u{301}" : true
          }
        }

        """)
  }

  /// Bytes that are not the UTF-16 text their first bytes name are refused; nothing changes.
  @Test func brokenUTF16IsRefused() throws {
    _ = try editor.run("write", "enc.broken", "keep", "me")
    // `{"a": 1}` in UTF-16LE with a lone high surrogate in the key.
    let input = Data([0x7B, 0, 0x22, 0, 0x00, 0xD8, 0x22, 0, 0x3A, 0, 0x31, 0, 0x7D, 0])
    let result = try editor.run(["import", "enc.broken", "-", "--json"], input: input)
    #expect(result.status == 65)
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    #expect(try editor.run("read", "enc.broken").output == "{\n    keep = me;\n}\n")
  }
}

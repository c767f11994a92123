import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// The verbs and forms of macOS `defaults` beyond read/write/delete, run as the built program.
@Suite(.serialized) struct DefaultsParityTests {
  private let editor: EditorProcess

  init() throws {
    editor = try EditorProcess()
  }

  private func run(_ arguments: String...) throws -> EditorProcess.Result {
    try editor.run(arguments)
  }

  @Test func arrayAddAndDictAddExtendWhatIsStored() throws {
    #expect(try run("write", "p.add", "list", "-array-add", "a").status == 0)
    #expect(try run("write", "p.add", "list", "-array-add", "b", "-int", "3").status == 0)
    #expect(try run("read", "p.add", "list").output == "(\n    a,\n    b,\n    3\n)\n")
    #expect(try run("write", "p.add", "map", "-dict", "x", "1").status == 0)
    #expect(
      try run("write", "p.add", "map", "-dict-add", "y", "-bool", "yes", "x", "2").status == 0)
    #expect(try run("read", "p.add", "map").output == "{\n    x = 2;\n    y = 1;\n}\n")
    let refused = try run("write", "p.add", "map", "-array-add", "z")
    #expect(refused.status == 65)
    #expect(
      refused.error
        == "settings-editor: map holds a value of type dictionary, not an array: nothing was added\n"
    )
  }

  @Test func renameMovesAValueAndRefusesToOverwrite() throws {
    _ = try run("write", "p.rename", "old", "-int", "7")
    _ = try run("write", "p.rename", "taken", "x")
    #expect(try run("rename", "p.rename", "old", "new").status == 0)
    #expect(try run("read", "p.rename", "new").output == "7\n")
    #expect(try run("read", "p.rename", "old").status == 1)
    let refused = try run("rename", "p.rename", "new", "taken")
    #expect(refused.status == 1)
    #expect(refused.error == "settings-editor: the key taken already exists in suite p.rename\n")
    #expect(try run("read", "p.rename", "new").output == "7\n", "nothing lost")
  }

  @Test func readTypeNamesTypesAsDefaultsDoes() throws {
    let values: [(String, [String], String)] = [
      ("s", ["x"], "string"), ("i", ["-int", "1"], "integer"), ("f", ["-float", "1.5"], "float"),
      ("b", ["-bool", "no"], "boolean"), ("d", ["-date", "2026-01-01"], "date"),
      ("x", ["-data", "00"], "data"), ("a", ["-array", "1"], "array"),
      ("m", ["-dict", "k", "v"], "dictionary"),
    ]
    for (key, words, type) in values {
      #expect(try editor.run(["write", "p.types", key] + words).status == 0)
      #expect(try run("read-type", "p.types", key).output == "Type is \(type)\n", "\(key)")
    }
  }

  @Test func datesInTheFormsDefaultsPrintsAndAccepts() throws {
    for (text, stored) in [
      ("2023-01-08 19:59:26 +0000", "2023-01-08T19:59:26Z"),
      ("2023-01-08 21:59:26 +0200", "2023-01-08T19:59:26Z"),
      ("2023-01-08", "2023-01-08T00:00:00Z"),
      ("2023-01-08T19:59:26Z", "2023-01-08T19:59:26Z"),
    ] {
      #expect(try run("write", "p.dates", "when", "-date", text).status == 0, "\(text)")
      #expect(try run("read", "p.dates", "when").output == "\(stored)\n", "\(text)")
    }
    #expect(try run("write", "p.dates", "when", "-date", "yesterday").status == 65)
  }

  @Test func deleteWithoutAKeyRemovesTheWholeSuite() throws {
    _ = try run("write", "p.gone", "a", "1")
    _ = try run("write", "p.gone", "b", "2")
    #expect(try run("delete", "p.gone").status == 0)
    #expect(try run("domains").output.contains("p.gone") == false)
    #expect(try run("read", "p.gone").status == 1)
    #expect(try run("delete", "p.gone").status == 1, "no such suite")
  }

  @Test func findSearchesKeysAndValuesOfEverySuite() throws {
    _ = try run("write", "p.find1", "greeting", "Hello World")
    _ = try run("write", "p.find1", "other", "x")
    _ = try run("write", "p.find2", "worldwide", "-bool", "yes")
    _ = try run("write", "p.find3", "nothing", "here")
    #expect(
      try run("find", "WORLD").output == """
        Found 1 key in domain 'p.find1': {
            greeting = "Hello World";
        }
        Found 1 key in domain 'p.find2': {
            worldwide = 1;
        }

        """)
    #expect(try run("find", "absent").output == "")
  }

  /// Bug 16: `read` printed Codable values as hex bytes.
  @Test func readShowsTheJSONInsideDataAndTheBytesWithRaw() throws {
    let json = #"{"width":800,"height":600}"#
    let hex = Data(json.utf8).map { String(format: "%02x", $0) }.joined()
    _ = try run("write", "p.codable", "frame", "-data", hex)
    #expect(try run("read", "p.codable", "frame").output == #"{"height":600,"width":800}"# + "\n")
    #expect(
      try run("read", "p.codable").output
        == "{\n    frame = {length = 26, json = {\"height\":600,\"width\":800}};\n}\n")
    #expect(
      try run("read", "p.codable", "frame", "--raw").output == "{length = 26, bytes = 0x\(hex)}\n")
  }
}

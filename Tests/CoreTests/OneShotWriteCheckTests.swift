import Foundation
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// The one-shot write (`PropertyListFile.write`) checks the file without building its values,
/// and must take and refuse exactly what the reader does: each hand-made file goes through the
/// one-shot write of one key and, in another copy, through a read and a write of the document
/// (`apply`); both give the same error (a refused file kept as it was) or the same values. The
/// fuzzer's read mode does the same over mutated real files (`FuzzTests`).
@Suite struct OneShotWriteCheckTests {
  static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"

  /// An XML suite whose top dictionary holds `entries` (text between `<dict>` and `</dict>`).
  static func xml(_ entries: String) -> Data {
    Data((header + "<dict>\n" + entries + "</dict>\n</plist>\n").utf8)
  }

  /// A plain XML suite of two keys, the file most bad ones below are made from.
  static let plainXML = xml(
    "\t<key>a</key>\n\t<string>one</string>\n\t<key>b</key>\n\t<integer>2</integer>\n")

  /// A binary suite `{"a": "one", "b": 2}`.
  static let plainBinary = BinaryPropertyListBytes.file([
    [0xD2, 1, 2, 3, 4], [0x51, UInt8(ascii: "a")], [0x51, UInt8(ascii: "b")],
    [0x53] + Array("one".utf8), [0x10, 2],
  ])

  /// `data` with the byte at `offset` (the offset table starts at 23 in ``plainBinary``) set to
  /// `byte`.
  static func changing(_ data: Data, at offset: Int, to byte: UInt8) -> Data {
    var changed = data
    changed[changed.startIndex + offset] = byte
    return changed
  }

  /// Files and whether the reader takes them.
  static let files: [(name: String, data: Data, isTaken: Bool)] = [
    ("plain XML", plainXML, true),
    ("plain binary", plainBinary, true),
    ("XML cut short", plainXML.prefix(plainXML.count - 20), false),
    ("XML cut in a key", plainXML.prefix(90), false),
    ("binary cut short", plainBinary.prefix(plainBinary.count - 1), false),
    ("binary cut in the objects", plainBinary.prefix(12) + plainBinary.suffix(37), false),
    (
      "XML key not UTF-8",
      xml("\t<key>a\u{FF}</key>\n\t<string>one</string>\n").replacing(
        Data("\u{FF}".utf8), with: Data([0xFF])), false
    ),
    (
      "XML value not UTF-8",
      xml("\t<key>a</key>\n\t<string>\u{FF}</string>\n").replacing(
        Data("\u{FF}".utf8), with: Data([0xC3, 0x28])), false
    ),
    (
      "XML key held twice",
      xml(
        "\t<key>a</key>\n\t<string>one</string>\n\t<key>a</key>\n\t<string>two</string>\n"), true
    ),
    ("XML unknown entity", xml("\t<key>a</key>\n\t<string>&nope;</string>\n"), false),
    ("XML entity in a key", xml("\t<key>a&amp;b</key>\n\t<string>one</string>\n"), true),
    (
      "XML comment between entries",
      xml(
        "\t<key>a</key>\n\t<string>one</string>\n<!-- c -->\n\t<key>b</key>\n\t<true/>\n"), true
    ),
    ("XML unclosed element", xml("\t<key>a</key>\n\t<string>one\n"), false),
    ("XML bad integer", xml("\t<key>a</key>\n\t<integer>1x</integer>\n"), false),
    ("XML bad date", xml("\t<key>a</key>\n\t<date>2024-02-30T00:00:00Z</date>\n"), false),
    ("XML bad Base64", xml("\t<key>a</key>\n\t<data>A&#69;C</data>\n"), false),
    ("XML text after the end", plainXML + Data("junk".utf8), false),
    ("XML key without a value", xml("\t<key>a</key>\n"), false),
    ("XML empty dictionary", Data((header + "<dict/>\n</plist>\n").utf8), true),
    ("XML root array", Data((header + "<array/>\n</plist>\n").utf8), false),
    ("OpenStep text", Data("{ a = one; b = 2; }".utf8), true),
    (
      "UTF-16 XML",
      Data([0xFF, 0xFE]) + String(decoding: plainXML, as: UTF8.self)
        .data(using: .utf16LittleEndian)!, true
    ),
    ("not a property list", Data("garbage".utf8), false),
    (
      "binary key held twice",
      BinaryPropertyListBytes.file([
        [0xD2, 1, 1, 2, 3], [0x51, UInt8(ascii: "a")], [0x10, 1], [0x10, 2],
      ]), true
    ),
    (
      "binary cycle", BinaryPropertyListBytes.file([[0xD1, 1, 2], [0x51, 0x61], [0xA1, 2]]), false
    ),
    (
      "binary reference beyond the objects",
      BinaryPropertyListBytes.file([
        [0xD1, 1, 9], [0x51, UInt8(ascii: "a")],
      ]), false
    ),
    ("binary offset outside the objects", changing(plainBinary, at: 24, to: 0xF0), false),
    ("binary reference size 0", changing(plainBinary, at: plainBinary.count - 25, to: 0), false),
    (
      "binary ASCII string above 0x7F",
      BinaryPropertyListBytes.file([
        [0xD1, 1, 2], [0x51, UInt8(ascii: "a")], [0x51, 0xE9],
      ]), false
    ),
    (
      "binary UTF-16 unpaired surrogate",
      BinaryPropertyListBytes.file([
        [0xD1, 1, 2], [0x51, UInt8(ascii: "a")], [0x61, 0xD8, 0x00],
      ]), false
    ),
    ("binary key not a string", BinaryPropertyListBytes.file([[0xD1, 1, 1], [0x10, 1]]), false),
    ("binary set", BinaryPropertyListBytes.dictionary(holding: [[0xC1, 0x01]]), false),
    ("binary root array", BinaryPropertyListBytes.file([[0xA1, 1], [0x10, 1]]), false),
    (
      "binary bad trailer",
      plainBinary.prefix(plainBinary.count - 8) + Data(repeating: 0xFF, count: 8), false
    ),
  ]

  @Test(arguments: files.indices)
  func aOneShotWriteTakesAndRefusesWhatTheReaderDoes(index: Int) async throws {
    let (name, data, isTaken) = Self.files[index]
    try await withTemporaryFolder { folder in
      let url = folder.file("suite.plist")
      let reader = PropertyListFile(url: url)
      #expect(((try? reader.document(from: data)) != nil) == isTaken, "\(name)")
      for key: PropertyListKey in ["a", "added"] {
        let changes: [PropertyListKey: PropertyListChange] = [key: .set("changed")]
        var outcomes: [String] = []
        var values: [[PropertyListKey: Any]?] = []
        for isOneShot in [true, false] {
          try data.write(to: url)
          do {
            if isOneShot { try reader.write(changes) } else { _ = try reader.apply(changes) }
            let back = try #require(try reader.read())
            outcomes.append("written")
            values.append(back.values)
          } catch let error as PropertyListError {
            outcomes.append(
              "\(error.kind), kept: \(try Data(contentsOf: url) == data): \(error.reason)")
            values.append(nil)
          }
        }
        #expect(outcomes[0] == outcomes[1], "\(name), \(key)")
        #expect(
          outcomes[0] == "written" ? isTaken : outcomes[0].hasPrefix("malformed, kept: true: "),
          "\(name)")
        #expect(propertyListValuesEqual(values[0], values[1]), "\(name), \(key)")
      }
    }
  }
}

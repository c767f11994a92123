import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A one-key read (`PropertyListFile.read(key:)`, which `settings-editor read <suite> <key>`
/// uses) decodes only the value asked for in a binary file and in plain XML text, and checks, takes and refuses the
/// file exactly as the whole read does: counts of values decoded, never times.
@Suite struct OneKeyReadTests {
  /// The outcome of `read`: the format and values of its document, or its error.
  private func outcome(_ read: () throws -> PropertyListDocument?)
    -> (text: String, values: [PropertyListKey: Any]?)
  {
    do {
      guard let document = try read() else { return ("no file", nil) }
      return ("\(document.format)", document.values)
    } catch {
      return ("\(error)", nil)
    }
  }

  /// Each hand-made file of ``OneShotWriteCheckTests/files`` read for one key held, one held
  /// last and one not held: the same error, or the same format and the whole read's value of
  /// the key alone.
  @Test(arguments: OneShotWriteCheckTests.files.indices)
  func aOneKeyReadTakesAndRefusesWhatTheReadDoes(index: Int) async throws {
    let (name, data, _) = OneShotWriteCheckTests.files[index]
    try await withTemporaryFolder { folder in
      let url = folder.file("suite.plist")
      try data.write(to: url)
      let file = PropertyListFile(url: url)
      for key: PropertyListKey in ["a", "b", "absent"] {
        let whole = outcome { try file.read() }
        let oneKey = outcome { try file.read(key: key) }
        #expect(oneKey.text == whole.text, "\(name), \(key)")
        let held = whole.values.map { values in values[key].map { [key: $0] } ?? [:] }
        #expect(propertyListValuesEqual(oneKey.values, held), "\(name), \(key)")
      }
    }
  }

  /// In a 1,000-key suite, binary or XML, a one-key read decodes one value (none for a key the
  /// suite does not hold), where the whole read decodes 1,000.
  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func aOneKeyReadDecodesOneValue(
    format: PropertyListSerialization.PropertyListFormat
  ) async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("suite.plist")
      let values = Dictionary(
        uniqueKeysWithValues: (0..<1_000).map { ("key\($0)", "value \($0)" as Any) })
      try foundationWrite(values, to: url, format: format)
      let file = PropertyListFile(url: url)
      let document = try #require(try file.read(key: "key500"))
      #expect(document.values.count == 1)
      #expect(document.values["key500"] as? String == "value 500")
      #expect(document.format == format)
      let absent = try #require(try file.read(key: "key1000"))
      #expect(absent.values.isEmpty)
      let counts = PropertyListCounters.counts(for: url)
      #expect(counts.parses == 2)
      #expect(counts.valuesDecoded == 1, "\(counts)")
    }
  }

  /// A key held twice in a binary file: the one-key read gives the first value, as the whole
  /// read and CoreFoundation do; a key held in a UTF-16 object is found by its exact scalars.
  @Test func aKeyHeldTwiceGivesItsFirstValueAndUTF16KeysAreFound() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("suite.plist")
      // {"a": 1, "a": 2, "é" (UTF-16): "x", "é" (e + U+0301, UTF-16): "y"}
      try BinaryPropertyListBytes.file([
        [0xD4, 1, 1, 3, 4, 5, 2, 6, 7], [0x51, UInt8(ascii: "a")], [0x10, 2], [0x61, 0x00, 0xE9],
        [0x62, 0x00, 0x65, 0x03, 0x01], [0x10, 1], [0x51, UInt8(ascii: "x")],
        [0x51, UInt8(ascii: "y")],
      ]).write(to: url)
      let file = PropertyListFile(url: url)
      let whole = try #require(try file.read()).values
      #expect(whole.count == 3)
      for key in ["a", "\u{E9}", "e\u{301}"].map({ PropertyListKey($0) }) {
        let oneKey = try #require(try file.read(key: key)).values
        #expect(oneKey.count == 1, "\(key)")
        #expect(propertyListValuesEqual(oneKey[key], whole[key]), "\(key)")
      }
      #expect(try #require(try file.read(key: "a")).values["a"] as? Int == 1)
    }
  }
}

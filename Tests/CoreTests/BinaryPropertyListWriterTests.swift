import Foundation
import Testing

@testable import ObservableDefaultsCore

/// The binary writer against Foundation's reader: exact values, Apple's encoding, shared objects.
@Suite struct BinaryPropertyListWriterTests {
  /// Every kind of value whose round trip is easy to get wrong.
  static var values: [String: Any] {
    [
      "date": Date(timeIntervalSinceReferenceDate: 694900766.426036),
      "old date": Date(timeIntervalSinceReferenceDate: -3_000_000_000.125),
      "data": Data([0, 1, 0xFF, 0x80]),
      "long data": Data((0..<300).map { UInt8($0 & 0xFF) }),
      "empty data": Data(),
      "unsigned above Int64.max": UInt64(Int64.max) + 1,
      "UInt64.max": UInt64.max,
      "Int.max": Int.max, "Int.min": Int.min, "minus one": -1, "minus 300": -300,
      "255": 255, "256": 256, "65535": 65535, "65536": 65536, "2^32": 1 << 32, "zero": 0,
      "real": 0.1, "nan": Double.nan, "infinity": Double.infinity,
      "minus infinity": -Double.infinity,
      "minus zero": -0.0, "tiny": Double.leastNonzeroMagnitude,
      "true": true, "false": false,
      "": "empty key", "empty": "",
      "ascii 15": String(repeating: "a", count: 15),
      "precomposed": "\u{E9}", "decomposed": "e\u{301}",
      "astral": "🎹 𝄞 and text long enough for a 0xF length", "nul": "a\u{0}b",
      "empty array": [Any](), "empty dictionary": [String: Any](),
      "mixed array": [1, "1", 1.0, true, Date(timeIntervalSinceReferenceDate: 1), Data([1])]
        as [Any],
      "nested": ["a": [["b": [Int]()]] as [Any], "ü": ["x": UInt64.max] as [String: Any]]
        as [String: Any],
    ]
  }

  /// `levels` arrays each holding the next, the innermost holding `"bottom"`.
  static func nested(_ levels: Int) -> Any {
    (0..<levels).reduce("bottom" as Any) { inner, _ in [inner] as [Any] }
  }

  private func foundationParse(_ data: Data) throws -> Any {
    try PropertyListSerialization.propertyList(from: data, format: nil)
  }

  @Test func foundationReadsEveryValueBackExactly() throws {
    let data = try BinaryPropertyListWriter.data(of: Self.values)
    let back = try #require(
      PropertyListValue.normalized(try foundationParse(data)) as? [String: Any])
    #expect(propertyListValuesEqual(back, Self.values))
    #expect((back["minus zero"] as? Double)?.sign == .minus)
    #expect((back["nan"] as? Double)?.isNaN == true)
    #expect(back["UInt64.max"] as? UInt64 == UInt64.max)
    #expect(back["unsigned above Int64.max"] as? UInt64 == UInt64(Int64.max) + 1)
    #expect(back["Int.min"] as? Int == Int.min)
    #expect((back["date"] as? Date)?.timeIntervalSinceReferenceDate == 694900766.426036)
    #expect(Array((back["decomposed"] as? String ?? "").unicodeScalars) == ["e", "\u{301}"])
    #expect(Array((back["precomposed"] as? String ?? "").unicodeScalars) == ["\u{E9}"])
    #expect(back["astral"] as? String == "🎹 𝄞 and text long enough for a 0xF length")
  }

  @Test func deepNestingRoundTrips() throws {
    let values: [String: Any] = ["deep": Self.nested(500)]
    let data = try BinaryPropertyListWriter.data(of: values)
    let back = try #require(
      PropertyListValue.normalized(try foundationParse(data)) as? [String: Any])
    #expect(propertyListValuesEqual(back, values))
  }

  @Test func oneKeyFileHasApplesExactBytes() throws {
    let data = try BinaryPropertyListWriter.data(of: ["a": 1] as [String: Any])
    let expected: [UInt8] =
      Array("bplist00".utf8)
      + [0xD1, 0x01, 0x02, 0x51, UInt8(ascii: "a"), 0x10, 0x01]  // {1: 2}, "a", 1
      + [0x08, 0x0B, 0x0D]  // offsets
      + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 0]
      + [0, 0, 0, 0, 0, 0, 0, 0x0F]
    #expect(Array(data) == expected)
  }

  @Test func integersTakeApplesSizes() throws {
    func integerBytes(_ value: Any) throws -> [UInt8] {
      let data = try BinaryPropertyListWriter.data(of: [value] as [Any])
      return Array(data[10..<(data.count - 32 - 2)])  // after the header and the array [0xA1, 1]
    }
    #expect(try integerBytes(255) == [0x10, 0xFF])
    #expect(try integerBytes(256) == [0x11, 0x01, 0x00])
    #expect(try integerBytes(65536) == [0x12, 0x00, 0x01, 0x00, 0x00])
    #expect(try integerBytes(1 << 32) == [0x13, 0, 0, 0, 1, 0, 0, 0, 0])
    #expect(try integerBytes(-1) == [0x13] + Array(repeating: 0xFF, count: 8))
    #expect(
      try integerBytes(UInt64.max) == [0x14] + Array(repeating: 0, count: 8)
        + Array(repeating: 0xFF, count: 8))
  }

  @Test func equalScalarsAreStoredOnceButDistinctTypesAreNot() throws {
    var values: [String: Any] = [:]
    for index in 0..<100 { values["key \(index)"] = "the same value" }
    values["one"] = 1
    values["one real"] = 1.0
    values["yes"] = true
    values["é"] = "\u{E9}"
    values["e and accent"] = "e\u{301}"
    let data = try BinaryPropertyListWriter.data(of: values)
    #expect(occurrences(of: Array("the same value".utf8), in: data) == 1)
    // Objects: the dictionary, 105 keys, one shared string, 1, 1.0, true and the decomposed
    // "é" (the precomposed one is the same object as the key "é").
    let trailerCount = data[(data.count - 24)..<(data.count - 16)].reduce(0) { $0 << 8 | Int($1) }
    #expect(trailerCount == 1 + 105 + 1 + 3 + 1)
    let back = try #require(
      PropertyListValue.normalized(try foundationParse(data)) as? [String: Any])
    #expect(propertyListValuesEqual(back, values))
    #expect(back["one"] is Int && back["one real"] is Double && back["yes"] is Bool)
  }

  @Test func fixturesRoundTripAndEditsGrowByTheValueOnly() throws {
    let folder = PropertyListFileTests.fixtures
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".plist")
    }
    #expect(names.count >= 6)
    for name in names {
      let original = try Data(contentsOf: folder.appendingPathComponent(name))
      let document = try PropertyListFile(url: folder.appendingPathComponent(name)).document(
        from: original)
      let data = try BinaryPropertyListWriter.data(of: document.values)
      let back = try #require(
        PropertyListValue.normalized(try foundationParse(data)) as? [String: Any])
      #expect(propertyListValuesEqual(back, document.values), "\(name)")
      guard document.format == .binary, let firstKey = document.values.keys.min() else { continue }
      #expect(
        data.count <= original.count, "\(name): \(data.count) bytes written, \(original.count) read"
      )
      var edited = document.values
      let newValue = "a new value of 24 bytes."
      edited[firstKey] = newValue
      let editedData = try BinaryPropertyListWriter.data(of: edited)
      // The value's own bytes, its marker and length, and an offset of up to 2 bytes.
      #expect(editedData.count <= data.count + newValue.utf8.count + 2 + 2, "\(name)")
    }
  }

  @Test func aValueThatIsNoPropertyListValueIsNamed() {
    #expect(
      throws: PropertyListEncodingFailure(
        reason: "a value of type URL is not a property-list value")
    ) {
      try BinaryPropertyListWriter.data(of: ["url": URL(fileURLWithPath: "/")] as [String: Any])
    }
  }

  private func occurrences(of needle: [UInt8], in data: Data) -> Int {
    let bytes = Array(data)
    guard bytes.count >= needle.count else { return 0 }
    return (0...(bytes.count - needle.count)).filter {
      bytes[$0..<$0 + needle.count].elementsEqual(needle)
    }.count
  }
}

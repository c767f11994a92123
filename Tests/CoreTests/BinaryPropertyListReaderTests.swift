import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Our binary reader against Foundation's: the same values from the same bytes.
@Suite struct BinaryPropertyListReaderTests {
  private func ours(_ data: Data) throws -> [PropertyListKey: Any] {
    try PropertyListFile(url: URL(fileURLWithPath: "/reader-test.plist")).document(from: data)
      .values
  }

  private func foundations(_ data: Data) throws -> [String: Any] {
    try #require(
      PropertyListValue.normalized(
        try PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any])
  }

  @Test func readsFoundationsBytesExactly() throws {
    var values = BinaryPropertyListWriterTests.values
    values["deep"] = BinaryPropertyListWriterTests.nested(400)
    let data = try PropertyListSerialization.data(
      fromPropertyList: values, format: .binary, options: 0)
    let back = try ours(data)
    #expect(propertyListValuesEqual(back, values))
    #expect(propertyListValuesEqual(back, try foundations(data)))
    #expect((back["minus zero"] as? Double)?.sign == .minus)
    #expect(back["UInt64.max"] as? UInt64 == UInt64.max)
    #expect(back["Int.min"] as? Int == Int.min)
    #expect((back["date"] as? Date)?.timeIntervalSinceReferenceDate == 694900766.426036)
    #expect(Array((back["decomposed"] as? String ?? "").unicodeScalars) == ["e", "\u{301}"])
    #expect(back["astral"] as? String == "🎹 𝄞 and text long enough for a 0xF length")
  }

  @Test func readsOurOwnBytesExactly() throws {
    let values = BinaryPropertyListWriterTests.values
    let back = try ours(try BinaryPropertyListWriter.data(of: values))
    #expect(propertyListValuesEqual(back, values))
    #expect((back["minus zero"] as? Double)?.sign == .minus)
    #expect((back["nan"] as? Double)?.isNaN == true)
  }

  @Test func everyBinaryFixtureReadsAsFoundationReadsIt() throws {
    let folder = PropertyListFileTests.fixtures
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix("-binary.plist")
    }
    #expect(names.count == 4)
    for name in names {
      let data = try Data(contentsOf: folder.appendingPathComponent(name))
      #expect(propertyListValuesEqual(try ours(data), try foundations(data)), "\(name)")
    }
  }

  @Test func scalarsOnlyOtherWritersUseReadAsFoundationReadsThem() throws {
    // A 4-byte real, a 16-byte integer that fits an Int, a 2-byte integer, one key twice.
    let data = BinaryPropertyListBytes.file([
      [0xD4, 1, 2, 3, 1, 4, 5, 6, 7],
      [0x51, UInt8(ascii: "a")], [0x51, UInt8(ascii: "b")], [0x51, UInt8(ascii: "c")],
      [0x22] + BinaryPropertyListBytes.bigEndian(UInt64(Float(0.1).bitPattern), size: 4),
      [0x14] + Array(repeating: 0, count: 8) + BinaryPropertyListBytes.bigEndian(7, size: 8),
      [0x11, 0x12, 0x34],
      [0x09],
    ])
    let back = try ours(data)
    #expect(back.count == 3)
    #expect(back["a"] as? Double == Double(Float(0.1)))
    #expect(back["b"] as? Int == 7)
    #expect(back["c"] as? Int == 0x1234)
    #expect(propertyListValuesEqual(back, try foundations(data)))
  }

  @Test func aRootThatIsNoDictionaryIsMalformed() throws {
    let data = BinaryPropertyListBytes.file([[0xA1, 1], [0x10, 1]])
    #expect(throws: PropertyListError.self) { try ours(data) }
  }
}

import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Our binary scanner against Foundation's reader: the same values from the same bytes, each
/// object checked once as it is read.
@Suite struct BinaryPropertyListScannerTests {
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

  /// Foundation shares no equal values: 2,000 keys of 50 equal arrays each are 100,000 array
  /// objects. Each array met inside another copied the scanner's whole table of containers (a
  /// copy of the scanner taken for the call that decodes the item, before reading it changed
  /// the table): such a 14 MB file read for more than 5 minutes. The time limit stands for that
  /// hang; the values are what is checked.
  @Test(.timeLimit(.minutes(1))) func manyContainersUnderOthersAreEachReadOnce() throws {
    let element: [Any] = ["a", 1, true, Data(count: 16)]
    let values = Dictionary(
      uniqueKeysWithValues: (0..<2_000).map { ("k\($0)", Array(repeating: element, count: 50)) })
    let data = try PropertyListSerialization.data(
      fromPropertyList: values, format: .binary, options: 0)
    let back = try ours(data)
    #expect(back.count == 2_000)
    #expect(propertyListValuesEqual(back["k1999"], values["k1999"]))
    let one = try PropertyListFile(url: URL(fileURLWithPath: "/reader-test.plist"))
      .document(from: data, key: "k7").values
    #expect(one.count == 1)
    #expect(propertyListValuesEqual(one["k7"], values["k7"]))
  }

  @Test func everyBinaryFixtureReadsAsFoundationReadsIt() throws {
    let fixtures = try PropertyListFileTests.binaryFixtures()
    #expect(fixtures.count == 4)
    for (name, data) in fixtures {
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

  /// `count` keys with distinct string values, as a binary file by our writer: the top
  /// dictionary, `count` keys and `count` values, each referred to once.
  private func distinctValues(_ count: Int) throws -> (values: [PropertyListKey: Any], data: Data) {
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<count { values["key \(index)"] = "value \(index) of the suite" }
    return (values, try BinaryPropertyListWriter.data(of: values))
  }

  /// One pass: reading a file checks each of its objects once (there is no separate validation
  /// walk before the read).
  @Test func aFileIsCheckedInTheSamePassThatReadsIt() throws {
    let (values, data) = try distinctValues(1_000)
    let (root, objects, checked) = try BinaryPropertyListScanner.scanning(data) {
      scanner throws(PropertyListRejection) in
      (try scanner.root(), scanner.objectCount, scanner.checkedObjects)
    }
    #expect(propertyListValuesEqual(root, values))
    #expect(objects == 2_001)
    #expect(checked == 2_001)
  }

  /// A re-read after a one-key change checks every object of the file once and decodes only the
  /// changed entry (the old re-read validated the file, then walked its entries again).
  @Test func aRereadChecksEachObjectOnceAndDecodesOnlyTheChange() throws {
    let (values, data) = try distinctValues(1_000)
    let entries = try #require(
      try BinaryPropertyListScanner.value(of: data, comparingTo: [:]).entries)
    var draft = try BinaryPropertyListDraft(values: values)
    #expect(try draft.apply(["key 7": .set("changed")]))
    let changed = try draft.data()
    let (changes, checked) = try BinaryPropertyListScanner.scanning(changed) {
      scanner throws(PropertyListRejection) in
      (try scanner.changes(since: entries, previous: values, file: changed), scanner.checkedObjects)
    }
    let found = try #require(changes)
    #expect(found.set.count == 1)
    #expect(found.set["key 7"] as? String == "changed")
    #expect(found.removed.isEmpty)
    #expect(checked == 2_001, "the top dictionary, 1,000 keys and 1,000 values, once each")
  }

  /// A container referred to twice is read once more and then shared: a chain of arrays that
  /// each refer to the next one twice is read in linear work, and refused in linear work when it
  /// expands beyond the limits.
  @Test func sharedContainersAreReadOnceMoreThenShared() throws {
    let (value, checked) = try BinaryPropertyListScanner.scanning(
      BinaryPropertyListBytes.doublingChain(16)
    ) { scanner throws(PropertyListRejection) in
      (try scanner.root(), scanner.checkedObjects)
    }
    var leaves = 0
    func countLeaves(_ value: Any) {
      if let array = value as? [Any] { array.forEach(countLeaves) } else { leaves += 1 }
    }
    countLeaves(try #require((value as? [PropertyListKey: Any])?["k"]))
    #expect(leaves == 1 << 16)
    // The top dictionary and its key; each array once and once again; the string 4 times.
    #expect(checked == 2 + 16 + 15 + 4)
    var refusedAfter = 0
    #expect(throws: PropertyListRejection.self) {
      try BinaryPropertyListScanner.scanning(BinaryPropertyListBytes.doublingChain(60)) {
        scanner throws(PropertyListRejection) in
        defer { refusedAfter = scanner.checkedObjects }
        return try scanner.root()
      }
    }
    #expect(refusedAfter <= 2 + 2 * 60 + 4)
  }
}

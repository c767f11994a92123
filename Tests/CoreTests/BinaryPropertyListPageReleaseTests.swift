import Foundation
import ObservableDefaultsTesting
import Testing

@testable import ObservableDefaultsCore

/// Reading a large binary file while giving its pages back: the same values as Foundation's
/// reader, the pages given back really read as zeros, and the file's version still recognized.
@Suite struct BinaryPropertyListPageReleaseTests {
  /// A top dictionary of about 3 MB with every kind of value, shared values and nested
  /// containers, so that the entries' objects lie all over the file.
  private static var values: [String: Any] {
    var values = BinaryPropertyListWriterTests.values
    for index in 0..<30_000 {
      values["key \(index)"] =
        switch index % 6 {
        case 0: "value \(index) long enough not to be a small string"
        case 1: "shared by many entries"
        case 2: ["nested \(index)": [index, "ü \(index)", Data(repeating: 7, count: 40)] as [Any]]
        case 3: "UTF-16 🎹 \(index)"
        case 4: Data(repeating: UInt8(index & 0xFF), count: 120)
        default: Double(index) / 7
        }
    }
    values["one value over many pages"] = Data(repeating: 1, count: 300_000)
    return values
  }

  /// ``values`` written by Foundation's writer or by ours.
  private static func data(by writer: String) throws -> Data {
    writer == "ours"
      ? try BinaryPropertyListWriter.data(of: values)
      : try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
  }

  /// The bytes of `data` in a buffer of their own, as a file read gives them.
  private func owned(_ data: Data) -> Data {
    data.withUnsafeBytes { Data(bytes: $0.baseAddress!, count: $0.count) }
  }

  @Test(arguments: ["Foundation", "ours"])
  func givesBackEveryPageAndReadsFoundationsValues(writer: String) throws {
    let data = try Self.data(by: writer)
    try expectEveryPageGivenBack(data, owned(data))
  }

  /// A buffer of 4 MiB or more is backed by huge pages: it is given back in whole ones.
  @Test func aBufferOfHugePagesIsGivenBackInWholeHugePages() throws {
    var values = Self.values
    values["a value of a few huge pages"] = Data(repeating: 3, count: 5_000_000)
    let data = try BinaryPropertyListWriter.data(of: values)
    let bytes = try #require(
      SystemMemory.allocate(byteCount: data.count).map { block in
        data.withUnsafeBytes { block.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return SystemMemory.data(taking: block, count: data.count, byteCount: data.count)
      })
    #expect(SystemMemory.releaseUnit(forBufferOf: bytes.count) == SystemMemory.hugePageSize)
    try expectEveryPageGivenBack(data, bytes)
  }

  /// Reads `bytes` (a copy of `data`) giving its pages back, and checks the values are
  /// Foundation's and every whole page (of the buffer's release unit) was given back as zeros.
  private func expectEveryPageGivenBack(_ data: Data, _ bytes: Data) throws {
    let (root, released, _) = try BinaryPropertyListScanner.value(releasingPagesOf: bytes)
    let foundations = try PropertyListSerialization.propertyList(from: data, format: nil)
    #expect(propertyListValuesEqual(root, PropertyListValue.normalized(foundations)))

    let (wholePages, zeroPages) = bytes.withUnsafeBytes { buffer in
      let pageSize = SystemMemory.releaseUnit(forBufferOf: buffer.count)
      let address = Int(bitPattern: buffer.baseAddress!)
      let first = (address + pageSize - 1) / pageSize * pageSize - address
      let pages = Array(stride(from: first, through: buffer.count - pageSize, by: pageSize))
      return (pages.count, pages.count { buffer[$0..<$0 + pageSize].allSatisfy { $0 == 0 } })
    }
    #expect(released == wholePages, "every page is given back by the last entry")
    #expect(zeroPages == wholePages, "and reads as zeros")
  }

  @Test(arguments: ["Foundation", "ours"])
  func pagesAreGivenBackAsTheEntriesAreRead(writer: String) throws {
    let bytes = owned(try Self.data(by: writer))
    try bytes.withUnsafeBytes { buffer in
      var scanner = try BinaryPropertyListScanner(bytes: buffer, limits: .preferences)
      let top = try #require(try scanner.topDictionary())
      var pages = try #require(BinaryPropertyListPageRelease(scanner: scanner, entries: top))
      pages.release(after: top.count / 2)
      let wholePages = buffer.count / SystemMemory.pageSize - 1
      #expect(pages.releasedPages >= wholePages / 4, "half the entries read")
      #expect(pages.releasedPages < wholePages)
    }
  }

  @Test func aSmallFileKeepsItsPages() throws {
    let data = try BinaryPropertyListWriter.data(of: BinaryPropertyListWriterTests.values)
    let (root, released, _) = try BinaryPropertyListScanner.value(releasingPagesOf: owned(data))
    #expect(released == 0)
    #expect(propertyListValuesEqual(root, BinaryPropertyListWriterTests.values))
  }

  @Test func aReferenceBeyondTheObjectsIsRejectedNotRead() throws {
    var bytes = [UInt8](try BinaryPropertyListWriter.data(of: Self.values))
    func integer(at offset: Int, size: Int) -> Int {
      bytes[offset..<offset + size].reduce(0) { $0 << 8 | Int($1) }
    }
    let trailer = bytes.count - 32
    let (offsetSize, referenceSize) = (Int(bytes[trailer + 6]), Int(bytes[trailer + 7]))
    let top = integer(at: trailer + 16, size: 8)
    let topOffset = integer(
      at: integer(at: trailer + 24, size: 8) + top * offsetSize, size: offsetSize)
    // The first key reference, after the marker and the count's integer object.
    let firstKey = topOffset + 2 + 1 << Int(bytes[topOffset + 1] & 0x0F)
    for index in 0..<referenceSize { bytes[firstKey + index] = 0xFF }
    #expect(throws: PropertyListRejection.self) {
      try BinaryPropertyListScanner.value(releasingPagesOf: Data(bytes))
    }
  }

  /// The walk that plans the pages runs before the scan has checked anything: on a large file
  /// whose value is a chain of arrays that each refer to the next one twice (2⁶⁰ values once
  /// expanded), it stops at the scanner's limits and the scan refuses the file.
  @Test func anExpandingFileIsRefusedNotWalked() throws {
    let arrays = (0..<60).map { index in [0xA2, UInt8(5 + index), UInt8(5 + index)] }
    let megabyte = [0x4F, 0x12] + BinaryPropertyListBytes.bigEndian(1 << 20, size: 4)
    let data = BinaryPropertyListBytes.file(
      [[0xD2, 1, 2, 3, 4], [0x51, UInt8(ascii: "k")], [0x51, UInt8(ascii: "p")]]
        + [megabyte + [UInt8](repeating: 7, count: 1 << 20)] + arrays
        + [[0x51, UInt8(ascii: "x")]])
    #expect(data.count > BinaryPropertyListPageRelease.minimumBytes)
    #expect {
      try BinaryPropertyListScanner.value(releasingPagesOf: owned(data))
    } throws: { error in
      (error as? PropertyListRejection)?.reason
        == "binary property list: it expands to more than 1000000 values (objects referred to many times)"
    }
  }

  @Test func aFileReadWholeIsStillRecognizedAsItsVersion() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("large.plist")
    try PropertyListSerialization.data(fromPropertyList: Self.values, format: .binary, options: 0)
      .write(to: url)
    let file = PropertyListFile(url: url)
    let snapshot = try #require(try file.readSnapshot())
    #expect(propertyListValuesEqual(snapshot.document.values, Self.values))
    var version = try #require(snapshot.version)
    #expect(file.isStill(&version), "hashed before its pages were given back")
  }
}

import Foundation
import ObservableDefaultsTesting
import Testing

@testable import ObservableDefaultsCore

/// The binary scanner's fast path for the entries suites hold: how many objects it takes, where
/// it hands over to the full scanner, and that it reads and refuses exactly what the full scanner
/// alone does.
@Suite struct BinaryPropertyListFastPathTests {
  /// What one scan of `data` by ``BinaryPropertyListScanner/root()`` found.
  private struct Scan {
    var root: Any?
    var refusal: String?
    var checked = 0
    var fastObjects = 0
    var handOvers = 0
    var firstHandOver: (dictionary: Int, position: Int)?
    var expansion = PropertyListExpansion()
  }

  private func scan(_ data: Data, fastPath: Bool = true) -> Scan {
    var scan = Scan()
    BinaryPropertyListFastPath.$isOn.withValue(fastPath) {
      do throws(PropertyListRejection) {
        scan.root = try BinaryPropertyListScanner.scanning(data) {
          scanner throws(PropertyListRejection) in
          defer {
            scan.checked = scanner.checkedObjects
            scan.fastObjects = scanner.fastPathObjects
            scan.handOvers = scanner.handOvers
            scan.firstHandOver = scanner.firstHandOver
            scan.expansion = scanner.expansion
          }
          return try scanner.root()
        }
      } catch {
        scan.refusal = error.reason
      }
    }
    return scan
  }

  /// Every kind of scalar a suite holds, as a value of the top dictionary, in every length form.
  private static var scalars: [Any] {
    [
      "short", "a string of more than fifteen characters", "é UTF-16 🎹", 0, 255, 65_535, -1,
      Int.max, UInt64.max, 0.5, -0.0, true, false, Date(timeIntervalSinceReferenceDate: 12.5),
      Data([1, 2, 3]), Data(repeating: 7, count: 300),
    ]
  }

  /// A suite of scalars only: the fast path takes every key and value, the full scanner none,
  /// and the values and totals are the full scanner's.
  @Test func aSuiteOfScalarsIsCheckedWholeByTheFastPath() throws {
    let scalars = Self.scalars
    var values: [PropertyListKey: Any] = [:]
    for index in 0..<1_000 { values["key \(index)"] = scalars[index % scalars.count] }
    let data = try BinaryPropertyListWriter.data(of: values)
    let fast = scan(data)
    let full = scan(data, fastPath: false)
    #expect(propertyListValuesEqual(fast.root, values))
    #expect(propertyListValuesEqual(fast.root, full.root))
    #expect(fast.fastObjects == 2_000)
    #expect(fast.handOvers == 0)
    #expect(fast.firstHandOver == nil)
    #expect(fast.checked == full.checked)
    #expect(fast.expansion == full.expansion)
    #expect(full.fastObjects == 0)
    #expect(BinaryPropertyListFastPathComparison.difference(in: data) == nil)
  }

  /// `{"a": "x", "b": [1], "c": 2}`: the fast path takes the first and the last entry, and hands
  /// the second (a nested array) to the full scanner.
  @Test func anEntryHoldingAnArrayIsHandedOverAtThatEntry() throws {
    let data = BinaryPropertyListBytes.file([
      [0xD3, 1, 2, 3, 4, 5, 7],
      [0x51, UInt8(ascii: "a")], [0x51, UInt8(ascii: "b")], [0x51, UInt8(ascii: "c")],
      [0x51, UInt8(ascii: "x")], [0xA1, 6], [0x10, 1], [0x10, 2],
    ])
    let fast = scan(data)
    let full = scan(data, fastPath: false)
    #expect(fast.refusal == nil)
    #expect(propertyListValuesEqual(fast.root, full.root))
    #expect(fast.fastObjects == 4)
    #expect(fast.handOvers == 1)
    #expect(fast.firstHandOver?.dictionary == 0)
    #expect(fast.firstHandOver?.position == 1)
    #expect(fast.checked == 8)
    #expect(full.checked == 8)
    #expect(fast.expansion == full.expansion)
    #expect(BinaryPropertyListFastPathComparison.difference(in: data) == nil)
  }

  /// Crafted bad files: the fast path hands the offending entry over, and the full scanner
  /// refuses it with the reason it gives alone.
  @Test(
    arguments: [
      (
        [[0xD1, 1, 7], [0x51, UInt8(ascii: "k")], [0x51, UInt8(ascii: "v")]], nil,
        "binary property list: object 0 at byte 8 refers to object 7, beyond the 3 objects of the "
          + "file"
      ),
      (
        [[0xD1, 1, 2], [0x51, UInt8(ascii: "k")], [0x52, UInt8(ascii: "a"), 0xC3]], nil,
        "binary property list: object 2 at byte 13 is an ASCII string holding the byte 0xC3"
      ),
      (
        [[0xD1, 1, 2], [0x51, UInt8(ascii: "k")], [0x51, UInt8(ascii: "v")]], 2,
        "binary property list: object 2 has an offset outside the object area"
      ),
      (
        [[0xD1, 1, 2], [0x51, 0xC3], [0x51, UInt8(ascii: "v")]], nil,
        "binary property list: object 1 at byte 11 is an ASCII string holding the byte 0xC3"
      ),
      (
        [[0xD1, 1, 2], [0x61, 0xD8, 0x00], [0x51, UInt8(ascii: "v")]], nil,
        "binary property list: object 1 at byte 11 is a UTF-16 string with an unpaired surrogate"
      ),
    ] as [([[UInt8]], Int?, String)])
  func aBadEntryIsRefusedAsTheFullScannerRefusesIt(
    objects: [[UInt8]], offsetIntoTrailer: Int?, reason: String
  ) throws {
    var data = BinaryPropertyListBytes.file(objects)
    if let object = offsetIntoTrailer {
      // The object's offset (1 byte) points into the trailer.
      let tableOffset = data.count - 32 - objects.count
      data[tableOffset + object] = UInt8(data.count - 10)
    }
    let fast = scan(data)
    let full = scan(data, fastPath: false)
    #expect(fast.refusal == reason)
    #expect(full.refusal == reason)
    #expect(fast.fastObjects == 0)
    #expect(fast.handOvers == 1)
    #expect(fast.checked == full.checked)
    #expect(fast.expansion == full.expansion)
    #expect(BinaryPropertyListFastPathComparison.difference(in: data) == nil)
  }

  /// The expansion limits: a value shared by every entry counts its bytes at each reference,
  /// and the entry that passes the limit is handed over and refused as the full scanner
  /// refuses it.
  @Test func theEntryThatPassesTheExpansionLimitIsRefusedAsBefore() throws {
    // 1,000 keys sharing one string of 100 bytes: 100,000 bytes, above a limit of 50,000.
    var objects: [[UInt8]] = [[0xDF, 0x11, 0x03, 0xE8]]
    let keys = 1_000
    objects[0] += (0..<keys).flatMap { BinaryPropertyListBytes.bigEndian(UInt64(1 + $0), size: 2) }
    objects[0] += (0..<keys).flatMap { _ in BinaryPropertyListBytes.bigEndian(1_001, size: 2) }
    objects += (0..<keys).map { [0x55] + Array(String(format: "k%04d", $0).utf8) }
    objects.append([0x5F, 0x10, 100] + Array(repeating: UInt8(ascii: "v"), count: 100))
    let data = withTwoByteReferences(BinaryPropertyListBytes.file(objects))
    let limits = PropertyListLimits(maximumDepth: 512, maximumObjects: 1_000_000, maximumBytes: 0)
    for fastPath in [true, false] {
      BinaryPropertyListFastPath.$isOn.withValue(fastPath) {
        #expect(
          throws: PropertyListRejection(
            reason: "binary property list: it expands to more than \(4 * data.count) bytes of "
              + "strings and data (objects referred to many times)")
        ) {
          try BinaryPropertyListScanner.value(of: data, limits: limits)
        }
      }
    }
    #expect(BinaryPropertyListFastPathComparison.difference(in: data) == nil)
  }

  /// `data` (built with 1-byte references) with its trailer's reference size set to 2.
  private func withTwoByteReferences(_ data: Data) -> Data {
    var data = data
    data[data.count - 25] = 2
    return data
  }

  /// The binary fixtures (real preference files) read the same with and without the fast path.
  @Test func everyBinaryFixtureReadsTheSameWithoutTheFastPath() throws {
    let fixtures = try PropertyListFileTests.binaryFixtures()
    #expect(fixtures.count == 4)
    for (name, data) in fixtures {
      #expect(BinaryPropertyListFastPathComparison.difference(in: data) == nil, "\(name)")
      // Every fixture but the empty dictionary has entries of scalars.
      #expect(scan(data).fastObjects > 0 || name == "empty-dict-binary.plist", "\(name)")
    }
  }
}

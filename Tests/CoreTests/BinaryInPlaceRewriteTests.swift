import Foundation
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A shorter binary property list written in place over a longer one, before the file is cut
/// (storage-torture seed 4303, step 2612): the file is the new objects, then the old list's
/// objects, offset table and trailer. Read through the old table, the offsets land on the new
/// objects' bytes, and here they parse: each lands in a long string of one repeated UTF-16
/// character, `慡` (0x6161, a marker of a one-character UTF-16 string followed by that
/// character). A writer that took it kept every value as `慡`.
@Suite struct BinaryInPlaceRewriteTests {
  private static let fillers = (0..<20).map { ("fill-\($0 + 100)", "filler \($0)") }

  private static let zeta = String(repeating: "\u{6161}", count: 15_000)

  /// `{"a-long": long, "fill-100": "filler 0", …, "zeta": "慡慡…"}` laid out as python's
  /// `plistlib` and Foundation lay a list out: the top dictionary, its keys, then its values in
  /// the keys' order: `a-long`'s value first, `zeta`'s last.
  private static func list(along: String) -> Data {
    let entries = [("a-long", along)] + fillers + [("zeta", zeta)]
    let count = UInt8(entries.count)
    let top = [0xDF, 0x10, count] + (1...2 * count).map { $0 }
    return BinaryPropertyListBytes.file(
      [top] + entries.map { string($0.0) } + entries.map { string($0.1) })
  }

  /// A string object: ASCII (marker 0x5), else UTF-16 big-endian (0x6), with its length.
  private static func string(_ text: String) -> [UInt8] {
    let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
    let units =
      isASCII ? text.utf8.map { $0 } : text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let count = isASCII ? units.count : units.count / 2
    let marker: UInt8 = isASCII ? 0x50 : 0x60
    let length: [UInt8] =
      count < 15
      ? [marker | UInt8(count)]
      : [marker | 0xF, 0x11] + BinaryPropertyListBytes.bigEndian(UInt64(count), size: 2)
    return length + units
  }

  /// The file after the shorter list's `pwrite`, before its `ftruncate`, and the shorter list:
  /// the old offsets of the values after `a-long`'s land in `zeta`'s.
  private func halfWritten() -> (file: Data, new: Data) {
    let old = Self.list(along: String(repeating: "b", count: 20_000))
    let new = Self.list(along: "short")
    return (new + old[new.count...], new)
  }

  @Test func theOldTablesOffsetsParseAndReachAFewBytes() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("torn.plist")
      let (file, _) = halfWritten()
      try file.write(to: url)
      // A reader that takes the old table as the file's reads every value after `a-long`'s as
      // one character: python's plistlib does.
      let python = try PythonPlistlib.strings(url)
      #expect(python["fill-100"] == "\u{6161}")
      #expect(python["zeta"] == "\u{6161}")
      #expect(python["a-long"] == "short")
      let area = Int(file.suffix(8).reduce(0) { $0 << 8 | UInt64($1) }) - 8
      // Reached: the top dictionary (47 bytes), its keys (192), "short" (6) and 21 strings of one
      // character (3 each).
      let refusal = #expect(throws: PropertyListRejection.self) {
        try BinaryPropertyListScanner.root(of: file)
      }
      #expect(
        refusal?.reason
          == "binary property list: its objects cover 308 of the \(area) bytes before its "
          + "offset table (a shorter list being written in place over a longer one?)")
    }
  }

  /// The writer reads the file again after its pauses, refuses it while it stays so, and once
  /// the file is cut writes its key beside every value of the new list.
  @Test func aWriterNeverTakesTheNewObjectsThroughTheOldTable() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("torn.plist")
      let (file, new) = halfWritten()
      try expectAWriterWaitsForTheCut(of: url, holding: file, to: new.count)
      let python = try PythonPlistlib.strings(url)
      #expect(python.count == 23)
      #expect(python["a-long"] == "short")
      #expect(python["other"] == "x")
      #expect(python["zeta"] == Self.zeta)
      #expect(Self.fillers.allSatisfy { python[$0.0] == $0.1 })
    }
  }

  /// `{"k": "v"}` and a data object no reference reaches (as a splice leaves them): read up to
  /// half of the object area and 4 KiB unreached, refused past it.
  @Test(arguments: [(4_000, true), (8_180, true), (8_200, false), (100_000, false)])
  func bytesNoReferenceReachesAreReadUpToHalfTheAreaAnd4KiB(dead: Int, isRead: Bool) throws {
    let length = BinaryPropertyListBytes.bigEndian(UInt64(dead), size: 4)
    let unreached = [0x4F, 0x12] + length + [UInt8](repeating: 0x2A, count: dead)
    let file = BinaryPropertyListBytes.file(
      [[0xD1, 1, 2], [0x51, UInt8(ascii: "k")], [0x51, UInt8(ascii: "v")], unreached])
    let root = try? BinaryPropertyListScanner.root(of: file)
    #expect((root as? [PropertyListKey: Any])?["k"] as? String == (isRead ? "v" : nil))
  }
}

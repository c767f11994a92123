import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// How many full-size copies of a large value a flush and another process's re-read make
/// (issue 42, item 5): counted as the blocks of ``SystemMemory/hugePageThreshold`` bytes or more
/// each one asks for (``SystemMemory/largeBlocks``), the only memory a copy of such a value is
/// made in, and the bytes a binary writer's draft holds copies of; and how many times the
/// re-read checks the value's Base64 apart from decoding it (``XMLScalarText/checkedBase64``),
/// and how many passes over the value or the file only hash them (``ByteHash/largePasses``).
/// Counts, never times.
@Suite struct LargeValueCopiesTests {
  /// A value of 6,000,000 bytes, above the threshold (4 MiB), that differs with `seed`.
  private static func value(_ seed: UInt8) -> Data {
    Data((0..<6_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) &+ seed })
  }

  /// What ``counted(format:in:)`` counts.
  private struct Counts {
    /// The sizes of the large blocks of the counted flush.
    var written: [Int]
    /// The bytes of scalars the writer's binary draft holds copies of (nil for XML).
    var draftBytes: Int?
    /// The sizes of the large blocks of the counted re-read.
    var reread: [Int]
    /// The sizes of the Base64 texts the counted re-read checked apart from decoding them.
    var checked: [Int]
    /// The sizes of the passes over the value's or the file's bytes that only hash them
    /// (``ByteHash/largePasses``), in the counted flush and in the counted re-read.
    var hashed: (flush: [Int], reread: [Int])
    /// The size of the file.
    var file: Int
    /// The value the reader read.
    var value: Data?
  }

  /// What a suite's writer and another process's reader do: the writer sets `blob` twice
  /// (the second flush is the one counted, as a running writer's are), the reader re-reads
  /// each version (the second re-read is counted).
  private func counted(
    format: PropertyListSerialization.PropertyListFormat, in folder: TemporaryFolder
  ) throws -> Counts {
    let url = folder.file("large-\(format.rawValue).plist")
    try foundationWrite(["name": "small"], to: url, format: format)
    let file = PropertyListFile(url: url)
    var writer: PropertyListSnapshot?
    var reader: PropertyListSnapshot?
    _ = try file.apply(["blob": .set(Self.value(1))], known: &writer)
    reader = try file.rereadSnapshot(comparingTo: [:], since: &reader).snapshot
    let previous = reader?.document.values ?? [:]
    let written = SystemMemory.LargeBlockLog()
    let hashedByFlush = SystemMemory.LargeBlockLog()
    try SystemMemory.$largeBlocks.withValue(written) {
      try ByteHash.$largePasses.withValue(hashedByFlush) {
        _ = try file.apply(["blob": .set(Self.value(2))], known: &writer)
      }
    }
    var draftBytes: Int?
    if case .binary(let draft?, _) = writer?.state { draftBytes = draft.copiedScalarBytes }
    let reread = SystemMemory.LargeBlockLog()
    let checked = SystemMemory.LargeBlockLog()
    let hashedByReread = SystemMemory.LargeBlockLog()
    try SystemMemory.$largeBlocks.withValue(reread) {
      try XMLScalarText.$checkedBase64.withValue(checked) {
        try ByteHash.$largePasses.withValue(hashedByReread) {
          (reader, _) = try file.rereadSnapshot(comparingTo: previous, since: &reader)
        }
      }
    }
    let size = try Stat(url.path).size
    // Both re-reads compared entries: only the value's was read again.
    #expect(PropertyListCounters.counts(for: url).keysReread == 3)
    return Counts(
      written: written.sizes, draftBytes: draftBytes, reread: reread.sizes,
      checked: checked.sizes, hashed: (hashedByFlush.sizes, hashedByReread.sizes), file: size,
      value: reader?.document.values["blob"] as? Data)
  }

  @Test func anXMLFlushEncodesIntoTheNewTextAndTheReReadDecodesIntoTheValuesOwnBlock() async throws
  {
    try await withTemporaryFolder { folder in
      let counts = try counted(format: .xml, in: folder)
      let (written, reread, file) = (counts.written, counts.reread, counts.file)
      // The flush: the text on disk read under the lock (into a block one byte larger, which
      // finds the end of the file without growing), and the new text, the value's Base64
      // lines encoded straight into it. The file did not change size (a value of the same
      // size).
      #expect(written == [file + 1, file])
      // The re-read: the file's bytes, and the value decoded into a block of its size at most
      // (the Base64 text's bound, given back down to the value's size). No copy of the text.
      // The text between `<data>` and `</data>`: a line break, the lines, a tab.
      let text = 2 + Base64Text.byteCount(encoding: 6_000_000, lineLength: 68, indentation: 1)
      #expect(reread == [file + 1, text / 4 * 3 + 2])
      // The value's Base64 is checked only as it is decoded: no pass of its own.
      #expect(counts.checked == [])
      // Hashed apart from a read or a write: only the changed entry's text, for its
      // fingerprint, on each side. The text read under the lock (which confirms the version
      // the flush edits), the text written and the text re-read are hashed as they are read or
      // written, piece by piece: each was a pass of its own over the whole file.
      #expect(counts.hashed.flush.count == 1)
      #expect(counts.hashed.reread.count == 1)
      #expect((counts.hashed.flush + counts.hashed.reread).allSatisfy { $0 < file })
      #expect(counts.value == Self.value(2))
    }
  }

  @Test func aBinaryFlushWritesOneBlockAndTheReReadKeepsTheValueInTheFilesBytes() async throws {
    try await withTemporaryFolder { folder in
      let counts = try counted(format: .binary, in: folder)
      // The flush: no large block. The draft holds the value as it was set, not a copy, and
      // the file is written from it: the value is a piece of the write of its own, between
      // the bytes before and after it (it was copied into one block of the file's bytes).
      #expect(counts.written == [])
      #expect(try #require(counts.draftBytes) < 1_000)
      // The re-read: the file's bytes only; the value is a view of them, most of the file.
      #expect(counts.reread == [counts.file + 1])
      // Hashed apart from a read or a write: the value once on each side, for its entry's
      // fingerprint (the writer when it is set, the reader when it finds it changed). The file
      // written and the file re-read are hashed as they are written or read, piece by piece:
      // each was a pass of its own over the whole file.
      let value = 6_000_000 + 6  // Its marker and length, then its bytes.
      #expect(counts.hashed.flush == [value])
      #expect(counts.hashed.reread == [value])
      #expect(counts.value == Self.value(2))
    }
  }
}

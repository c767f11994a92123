import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Blocks of ``SystemMemory/hugePageThreshold`` bytes or more (a large file's bytes, a flush's
/// output) are mappings of their own, given back whole, and no memory of `malloc` is ever advised
/// for huge pages (issue 42, item 6: a writer of a 5 MB value grew 7 KB per round, because
/// glibc served such blocks from its heaps and `khugepaged` refilled the heap's advised pages
/// that `malloc_trim` had given back).
@Suite struct LargeBlockMemoryTests {
  @Test func aLargeBlockIsAMappingOfItsOwnEvenAfterOneWasFreed() throws {
    let count = 5_000_000
    // glibc maps the first such block (its header before it: the block starts 16 bytes into a
    // page) and serves the next ones from its heap: both must start a mapping, at a page.
    for _ in 0..<2 {
      let block = try #require(SystemMemory.allocate(byteCount: count))
      block.storeBytes(of: 1, toByteOffset: count - 1, as: UInt8.self)
      #expect(Int(bitPattern: block) % SystemMemory.pageSize == 0)
      SystemMemory.deallocate(block, byteCount: count)
    }
  }

  /// glibc maps a large `malloc` block, and once one is freed serves the next from a heap (its
  /// threshold rises to the freed block's size), where it stays resident when freed; a program
  /// that stays open (the editor, `watch`) fixes the threshold, so every one is a mapping.
  @Test(arguments: [("", "mapping heap\n"), ("mapped", "mapping mapping\n")])
  func aProgramThatStaysOpenMapsEveryLargeBlock(mode: String, places: String) throws {
    let folder = try TemporaryFolder()
    let result = try CoreProbe.run(
      ["large-block-places"] + (mode.isEmpty ? [] : [mode]), configHome: folder.url)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == places)
  }

  @Test func aShrunkLargeBlockKeepsItsBytesAndGivesBackItsEnd() throws {
    let block = try #require(SystemMemory.allocate(byteCount: 6_000_000))
    block.storeBytes(of: 42, toByteOffset: 4_499_999, as: UInt8.self)
    let shrunk = try #require(SystemMemory.resize(block, from: 6_000_000, to: 4_500_000))
    #expect(shrunk == block)
    #expect(shrunk.load(fromByteOffset: 4_499_999, as: UInt8.self) == 42)
    shrunk.storeBytes(of: 7, toByteOffset: 999, as: UInt8.self)
    let small = try #require(SystemMemory.resize(shrunk, from: 4_500_000, to: 1_000))
    #expect(small.load(fromByteOffset: 999, as: UInt8.self) == 7)
    SystemMemory.deallocate(small, byteCount: 1_000)
  }

  @Test func aWriterOfALargeValueLeavesNoMemoryAdvisedForHugePages() throws {
    let folder = try TemporaryFolder()
    let file = folder.url.appendingPathComponent("large.plist")
    let result = try CoreProbe.run(
      ["large-value-rounds", file.path, "5000000", "20"], configHome: folder.url)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "0\n")
  }

  /// Each flush that writes a large file trims the heap once (the value it replaced and its
  /// encoding's buffers are free in the middle of glibc's heaps by then); a small file never does.
  @Test func aFlushOfALargeFileTrimsTheHeapOnce() async throws {
    try await withTemporaryFolder { folder in
      let large = folder.file("large.plist")
      let defaults = PropertyListDefaults(fileURL: large)
      let filler = String(repeating: "x", count: FreedMemory.largeFile)
      for round in 0..<3 {
        defaults.set("\(round)" + filler, forKey: "value")
        try defaults.flush()
      }
      #expect(PropertyListCounters.counts(for: large).heapTrims == 3)
      #expect(PropertyListCounters.counts(for: large).writes == 3)

      let small = folder.file("small.plist")
      let smallDefaults = PropertyListDefaults(fileURL: small)
      for round in 0..<3 {
        smallDefaults.set("\(round)", forKey: "value")
        try smallDefaults.flush()
      }
      #expect(PropertyListCounters.counts(for: small).heapTrims == 0)
    }
  }
}

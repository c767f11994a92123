import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The C library's heap, and pages of memory.
package enum SystemMemory {
  #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32
    /// `malloc_trim`, looked up with `dlsym`: the Glibc module does not import `malloc.h`.
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
      .map { unsafeBitCast($0, to: Trim.self) }

    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    /// `mallopt`, looked up as `malloc_trim` is.
    private static let option: Option? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
      .map { unsafeBitCast($0, to: Option.self) }
    /// `M_MMAP_THRESHOLD` and `M_TRIM_THRESHOLD` of glibc's `malloc.h`.
    private static let (mappingThresholdOption, trimThresholdOption): (Int32, Int32) = (-3, -1)
    /// glibc's default `M_TRIM_THRESHOLD`: 128 KiB.
    private static let trimThreshold: Int32 = 128 << 10
  #endif

  /// The size from which ``mapLargeBlocks()`` makes a `malloc` block a mapping of its own: 1 MiB.
  private static let largeBlockMappingThreshold: Int32 = 1 << 20

  /// Makes every block of ``largeBlockMappingThreshold`` bytes or more that `malloc` gives from
  /// now on a mapping of its own, unmapped when freed (glibc's `mallopt(M_MMAP_THRESHOLD, …)`):
  /// for a program of this package that stays open while its suites are re-read (the editor's
  /// `run()`, `settings-editor watch`), never for a settings program that only uses the
  /// library, whose heap is its own to tune.
  ///
  /// glibc maps a large block at first and, once one is freed, raises its threshold to that
  /// block's size (up to 32 MiB) and the size at which it gives back the free top of a heap to
  /// twice that (glibc's `mallopt(3)`, "M_MMAP_THRESHOLD"): after the first re-read freed a
  /// 100,000-key dictionary of 12.6 MB, the later ones came from the heap of whichever thread
  /// ran the re-read and stayed resident when freed there, out of `malloc_trim`'s reach (the
  /// editor at 100,000 keys held 1.09–1.15× its first paint after 100 outside changes, at
  /// 1,000,000 keys 1.16×). A threshold set by the program is fixed; the size from which a
  /// heap's free top is given back is set to glibc's default, 128 KiB, again, as the earlier
  /// frees may have raised it. Does nothing where there is no `mallopt`.
  package static func mapLargeBlocks() {
    #if canImport(Glibc)
      _ = option?(mappingThresholdOption, largeBlockMappingThreshold)
      _ = option?(trimThresholdOption, trimThreshold)
    #endif
  }

  /// The size of a page of memory.
  static let pageSize: Int = {
    #if canImport(Glibc)
      return Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return 4096
    #endif
  }()

  /// The size of a huge page (2 MiB on x86-64 and arm64 Linux).
  static let hugePageSize = 2 << 20

  /// The unit in which the memory of a buffer of `count` bytes is given back
  /// (``discardPages(_:_:)``): a huge page for a buffer of ``hugePageThreshold`` bytes or more,
  /// which ``allocate(byteCount:)`` backs with huge pages (giving back part of one splits it,
  /// and the kernel frees its memory only later, when it splits such pages under pressure),
  /// else a page.
  static func releaseUnit(forBufferOf count: Int) -> Int {
    count >= hugePageThreshold ? hugePageSize : pageSize
  }

  /// Whether ``discardPages(_:_:)`` gives pages back (false where there is no `madvise`).
  static var canDiscardPages: Bool {
    #if canImport(Glibc)
      true
    #else
      false
    #endif
  }

  /// Gives the `count` bytes of whole pages at `start` (page-aligned) back to the system
  /// (`madvise(MADV_DONTNEED)`): they stay mapped and read as zeros afterwards.
  static func discardPages(_ start: UnsafeMutableRawPointer, _ count: Int) {
    #if canImport(Glibc)
      _ = madvise(start, count, MADV_DONTNEED)
    #endif
  }

  /// Gives the free pages of every malloc arena back to the system (`malloc_trim(0)`); does
  /// nothing where there is no `malloc_trim`.
  static func returnFreePages() {
    #if canImport(Glibc)
      _ = trim?(0)
    #endif
  }

  /// The size from which a block is worth huge pages: 4 MiB, two of the 2 MiB pages of x86-64
  /// and arm64 Linux.
  static let hugePageThreshold = 4 << 20

  /// For tests of what a failed allocation does: blocks of at least this many bytes that
  /// ``allocate(byteCount:)`` is asked for in the current task are refused as if memory had run
  /// out (nil, always, outside such a test).
  @TaskLocal static var refusedByteCount: Int?

  /// For tests that count the full-size copies of a large value: the blocks of
  /// ``hugePageThreshold`` bytes or more that ``allocate(byteCount:)`` gives in the current task
  /// are noted here (nil, always, outside such a test).
  @TaskLocal static var largeBlocks: LargeBlockLog?

  /// The sizes of the large blocks given in a task (``largeBlocks``), in order.
  final class LargeBlockLog: @unchecked Sendable {
    private let lock = NSLock()
    private var noted: [Int] = []

    /// The sizes noted so far.
    var sizes: [Int] { lock.withLock { noted } }

    func note(_ size: Int) { lock.withLock { noted.append(size) } }
  }

  /// Asks the kernel to back the 2 MiB-aligned pages inside a mapping of at least
  /// ``hugePageThreshold`` bytes that nothing has written yet with transparent huge pages
  /// (`madvise(MADV_HUGEPAGE)`; the kernel's default here, `madvise`, gives them only when asked).
  ///
  /// A new block's first write to each 4 KiB page is a page fault: on this project's machine,
  /// writing a new 50 MB block took 37–43 ms and releasing it 3.4 ms, against 12 ms and 0.2 ms
  /// with huge pages. Nothing happens where huge pages are off. Only for a mapping of this
  /// process's own (``allocate(byteCount:)``), never for memory from `malloc`: the advice stays
  /// on the range after `free`, and the kernel's `khugepaged` then fills the pages `malloc_trim`
  /// gave back, 2 MiB at a time (a writer of a 5 MB value grew 7 KB per round over 1,000 rounds).
  static func adviseHugePages(_ block: UnsafeMutableRawPointer, byteCount count: Int) {
    #if canImport(Glibc)
      guard count >= hugePageThreshold else { return }
      let page = hugePageSize
      let start = (Int(bitPattern: block) + page - 1) & ~(page - 1)
      let end = (Int(bitPattern: block) + count) & ~(page - 1)
      guard end > start else { return }
      _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
    #endif
  }
}

/// Bytes written one piece after another into one block of a size known beforehand
/// (``SystemMemory/allocate(byteCount:)``), then handed over as a `Data` without a copy.
struct OutputBlock: ~Copyable {
  private let block: UnsafeMutableRawPointer
  private let capacity: Int
  private(set) var count = 0

  /// A block of `capacity` bytes, or nil when memory runs out.
  init?(capacity: Int) {
    guard let block = SystemMemory.allocate(byteCount: max(capacity, 1)) else { return nil }
    self.block = block
    self.capacity = capacity
  }

  /// Writes `bytes` after those written before (there must be room for them).
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    precondition(count + bytes.count <= capacity, "more bytes than the block was made for")
    (block + count).copyMemory(from: base, byteCount: bytes.count)
    count += bytes.count
  }

  /// Writes the bytes of `data`.
  mutating func append(_ data: Data.SubSequence) {
    data.withUnsafeBytes { append($0) }
  }

  /// Lets `write` write `count` bytes at the end of those written before (there must be room
  /// for them).
  mutating func write(count: Int, _ write: (UnsafeMutableRawPointer) -> Void) {
    precondition(self.count + count <= capacity, "more bytes than the block was made for")
    write(block + self.count)
    self.count += count
  }

  /// Writes one byte.
  mutating func append(_ byte: UInt8) {
    precondition(count < capacity, "more bytes than the block was made for")
    block.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
    count += 1
  }

  /// The bytes written, as a `Data` that frees the block.
  consuming func data() -> Data {
    let data = SystemMemory.data(taking: block, count: count, byteCount: max(capacity, 1))
    discard self
    return data
  }

  /// A block never handed over (its writer gave up) is freed.
  deinit {
    SystemMemory.deallocate(block, byteCount: max(capacity, 1))
  }
}

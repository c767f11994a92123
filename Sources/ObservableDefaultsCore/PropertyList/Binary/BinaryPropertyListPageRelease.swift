/// Gives back to the system, while ``BinaryPropertyListScanner`` reads a top dictionary entry by
/// entry, the whole pages of the file's bytes that no later entry reads.
///
/// Opening a 1,000,000-key suite held the file's 48 MB beside everything built from them (the
/// dictionary and its strings) until the last entry was read: that moment was the open's
/// memory peak. Before reading, one walk over the entries notes, for each whole page of the
/// bytes, the last entry whose reading reads it: the entry's two references, and for its key and
/// its value every object the scanner reads (offset-table slot, marker, length and contents, a
/// container's references and children; an object each time it is referred to). The walk checks
/// nothing but bounds: it reads no contents, stops at the scanner's depth and expansion limits
/// (then nothing is given back, and the scan refuses the file), and costs a fraction of the scan
/// (on 100,000 keys, 9 M instructions where the scan takes 150 M). Every ``entriesAtOnce`` entries
/// read, the pages
/// whose last entry is behind are given back (`madvise(MADV_DONTNEED)`, in runs, once
/// ``batchBytes`` are pending), and every page by the last entry. They read as zeros
/// afterwards, so the bytes must be no one else's. A page here is the unit of
/// ``SystemMemory/releaseUnit(forBufferOf:)``: 2 MiB in a buffer of 4 MiB or more, which a
/// file read backs with huge pages.
struct BinaryPropertyListPageRelease {
  /// Bytes below which nothing is given back: too few pages to pay for the walk.
  static let minimumBytes = 1 << 20
  /// Bytes given back together: fewer system calls than one per page.
  static let batchBytes = 256 << 10
  /// Entries the reader reads between two looks for pages to give back.
  static let entriesAtOnce = 1024

  /// The first whole page of the bytes.
  private let firstPage: UnsafeMutableRawPointer
  /// The unit given back (``SystemMemory/releaseUnit(forBufferOf:)``): called a page here.
  private let pageSize: Int
  /// Pages given back together (``batchBytes`` of them, at least one).
  private let batchPages: Int
  /// Per whole page: the last entry that reads it (-1: none does).
  private let lastEntries: [Int]
  /// The pages, by their last entry; those before `next` are given back or pending.
  private let order: [Int]
  private var next = 0
  private var pending: [Int] = []
  /// How many pages were given back so far.
  private(set) var releasedPages = 0

  /// The pages of `scanner`'s bytes against the entries of the top dictionary `top`; nil for
  /// bytes below ``minimumBytes``, where pages cannot be given back, or when the entries are
  /// inconsistent or beyond the limits (the scan then refuses them).
  init?(scanner: BinaryPropertyListScanner, entries top: BinaryPropertyListScanner.Container) {
    let bytes = scanner.bytes
    let pageSize = SystemMemory.releaseUnit(forBufferOf: bytes.count)
    guard bytes.count >= Self.minimumBytes, SystemMemory.canDiscardPages,
      let base = bytes.baseAddress
    else { return nil }
    let address = Int(bitPattern: base)
    let skipped = (address + pageSize - 1) / pageSize * pageSize - address
    var lastEntries = Array(
      repeating: -1, count: (bytes.count - skipped) >> pageSize.trailingZeroBitCount)
    let isConsistent = lastEntries.withUnsafeMutableBufferPointer { pages in
      var plan = PagePlan(
        layout: scanner.layout, maximumDepth: scanner.limits.maximumDepth,
        budget: scanner.maximumObjects, pages: pages, skipped: skipped,
        pageShift: pageSize.trailingZeroBitCount)
      return plan.noteEntries(of: top)
    }
    guard isConsistent else { return nil }
    self.pageSize = pageSize
    batchPages = max(1, Self.batchBytes / pageSize)
    firstPage = UnsafeMutableRawPointer(mutating: base + skipped)
    self.lastEntries = lastEntries
    order = lastEntries.indices.sorted { lastEntries[$0] < lastEntries[$1] }
    pending.reserveCapacity(batchPages)
    release(after: -1)
  }

  /// Gives back the pages no entry after `entry` reads (once ``batchPages`` of them are
  /// pending, and the last ones once every page is).
  mutating func release(after entry: Int) {
    while next < order.count, lastEntries[order[next]] <= entry {
      pending.append(order[next])
      next += 1
      if pending.count == batchPages || next == order.count { releasePending() }
    }
  }

  /// Gives back the pending pages, each run of adjacent ones in one call.
  private mutating func releasePending() {
    pending.sort()
    var runStart = 0
    for index in pending.indices
    where index + 1 == pending.count || pending[index + 1] != pending[index] + 1 {
      SystemMemory.discardPages(
        firstPage + pending[runStart] * pageSize, (index + 1 - runStart) * pageSize)
      runStart = index + 1
    }
    releasedPages += pending.count
    pending.removeAll(keepingCapacity: true)
  }
}

/// The walk of ``BinaryPropertyListPageRelease``: per whole page, the last entry of the top
/// dictionary that reads it.
private struct PagePlan {
  let layout: BinaryPropertyListLayout
  let maximumDepth: Int
  /// Objects the walk may still visit: the scanner's expansion limit.
  var budget: Int
  /// Per whole page: the last entry noted to read it.
  let pages: UnsafeMutableBufferPointer<Int>
  /// The bytes before the first whole page.
  let skipped: Int
  let pageShift: Int
  /// The entry being noted.
  var entry = 0

  /// Notes what reading each entry of `top` reads; false when the walk met bytes the scanner
  /// refuses or went beyond its limits.
  mutating func noteEntries(of top: BinaryPropertyListScanner.Container) -> Bool {
    for position in 0..<top.count {
      entry = position
      guard noteReference(top.start, position, depth: 2),
        noteReference(top.start, top.count + position, depth: 2)
      else { return false }
    }
    return true
  }

  /// Notes reference `position` of the references starting at byte `start`, and the object it
  /// refers to at `depth`.
  private mutating func noteReference(_ start: Int, _ position: Int, depth: Int) -> Bool {
    let reference = start + position * layout.referenceSize
    note(reference, reference + layout.referenceSize)
    let index = layout.uncheckedReference(start, position)
    return index < UInt64(layout.objectCount) && noteObject(Int(index), depth: depth)
  }

  /// Notes that the current entry reads the bytes from `lower` to `upper` (the whole pages they
  /// touch).
  private func note(_ lower: Int, _ upper: Int) {
    let first = (lower - skipped) >> pageShift
    let last = (upper - 1 - skipped) >> pageShift
    if first == last, first >= 0, first < pages.count {
      pages[first] = entry
      return
    }
    guard lower < upper, upper > skipped else { return }
    var page = max(first, 0)
    while page <= min(last, pages.count - 1) {
      pages[page] = entry
      page += 1
    }
  }

  /// Notes what reading object `index` at `depth` reads: its offset-table slot, its bytes
  /// (marker, length, contents or references) and those of every object it holds.
  private mutating func noteObject(_ index: Int, depth: Int) -> Bool {
    budget -= 1
    guard budget >= 0, depth <= maximumDepth else { return false }
    let slot = layout.tableOffset + index * layout.offsetSize
    note(slot, slot + layout.offsetSize)
    let offset = layout.uncheckedOffset(index)
    guard offset >= 8, offset < layout.tableOffset else { return false }
    let marker = layout.bytes[offset]
    let kind = marker >> 4
    var (start, count) = (offset + 1, Int(marker & 0x0F))
    if count == 0xF, kind >= 0x4 {
      guard let long = try? layout.lengthAndStart(index, at: offset) else { return false }
      (start, count) = long
    }
    let end: Int
    switch kind {
    case 0x0: end = start
    case 0x1: end = start + 1 << min(count, 4)
    case 0x2, 0x3: end = start + 1 << min(count, 3)
    case 0x4, 0x5: end = start + count
    case 0x6: end = start + 2 * count
    case 0xA, 0xD:
      let references = kind == 0xD ? 2 * count : count
      guard references <= (layout.tableOffset - start) / layout.referenceSize else {
        return false
      }
      note(offset, start)
      for position in 0..<references
      where !noteReference(start, position, depth: depth + 1) {
        return false
      }
      return true
    default: return false
    }
    guard end <= layout.tableOffset else { return false }
    note(offset, end)
    return true
  }
}

/// Gives back to the system, while ``BinaryPropertyListReader`` reads a top dictionary entry by
/// entry, the whole pages of the file's bytes that no later entry reads.
///
/// Opening a 1,000,000-key suite held the file's 48 MB beside everything built from them (the
/// dictionary and its strings) until the last entry was read: that moment was the open's
/// memory peak. Before reading, one walk over the entries notes, for each whole page of the
/// bytes, the last entry whose reading reads it: the entry's two references, and for its key and
/// its value every object the reader reads (offset-table slot, marker, length and contents, a
/// container's references and children; an object each time it is referred to, bounded by the
/// validator's expansion limits as reading is). Every ``entriesAtOnce`` entries read, the pages
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

  /// The pages of `reader`'s bytes against the `count` entries of the top dictionary whose
  /// references start at byte `start`; nil for bytes below ``minimumBytes``, where pages cannot
  /// be given back, or when the entries are inconsistent (the read then fails on its own).
  init?(reader: BinaryPropertyListReader, entries start: Int, count: Int) {
    let pageSize = SystemMemory.releaseUnit(forBufferOf: reader.bytes.count)
    guard reader.bytes.count >= Self.minimumBytes, SystemMemory.canDiscardPages,
      let base = reader.bytes.baseAddress
    else { return nil }
    let address = Int(bitPattern: base)
    let skipped = (address + pageSize - 1) / pageSize * pageSize - address
    let pageShift = pageSize.trailingZeroBitCount
    var lastEntries = Array(repeating: -1, count: (reader.bytes.count - skipped) >> pageShift)
    let isConsistent = lastEntries.withUnsafeMutableBufferPointer { pages in
      /// Notes that `entry` reads the bytes of `range` (the whole pages it touches).
      func note(_ range: Range<Int>, entry: Int) {
        guard !range.isEmpty, range.upperBound > skipped else { return }
        let first = max(range.lowerBound - skipped, 0) >> pageShift
        let last = min((range.upperBound - 1 - skipped) >> pageShift, pages.count - 1)
        var page = first
        while page <= last {
          pages[page] = entry
          page += 1
        }
      }
      /// Notes what reading reference `reference` of the entry at `position` reads.
      func note(reference: Int, of position: Int) throws(PropertyListRejection) {
        note(reader.referenceRange(start, reference), entry: position)
        try reader.forEachRange(readingObject: try reader.reference(start, reference), depth: 2) {
          note($0, entry: position)
        }
      }
      do {
        for position in 0..<count {
          try note(reference: position, of: position)
          try note(reference: count + position, of: position)
        }
        return true
      } catch {
        return false
      }
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

extension BinaryPropertyListReader {
  /// The bytes of reference `position` of the references starting at byte `start`.
  func referenceRange(_ start: Int, _ position: Int) -> Range<Int> {
    let offset = start + position * referenceSize
    return offset..<offset + referenceSize
  }

  /// Calls `body` with every range of bytes that reading object `index` at `depth` reads
  /// (``value(_:depth:)``, or ``string(at:)`` for a key): its offset-table slot, its bytes
  /// (marker, length, contents or references) and those of every object it holds.
  ///
  /// - Throws: ``PropertyListRejection`` where reading would.
  func forEachRange(
    readingObject index: Int, depth: Int, _ body: (Range<Int>) -> Void
  ) throws(PropertyListRejection) {
    guard depth <= PropertyListLimits.preferences.maximumDepth else { throw Self.inconsistent() }
    body(offsetTableSlot(index))
    if let scalar = try scalarRange(index) {
      body(scalar)
      return
    }
    let offset = try objectOffset(index)
    let kind = bytes[offset] >> 4
    guard kind == 0xA || kind == 0xD else { throw Self.inconsistent() }
    let (start, count) = try lengthAndStart(offset, Int(bytes[offset] & 0x0F))
    let references = kind == 0xD ? 2 * count : count
    try require(start, references * referenceSize)
    body(offset..<start + references * referenceSize)
    for position in 0..<references {
      try forEachRange(readingObject: try reference(start, position), depth: depth + 1, body)
    }
  }
}

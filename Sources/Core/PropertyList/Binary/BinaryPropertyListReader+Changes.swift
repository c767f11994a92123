import Foundation

extension BinaryPropertyListReader {
  /// The entries of the top dictionary of `data` that differ from those of `old`, the previous
  /// version of the same file, told apart by their bytes.
  ///
  /// A writer that changes a few keys of a large file (this package's, through
  /// ``BinaryPropertyListDraft``) leaves every other entry of the top dictionary at its position,
  /// with the same key and value objects. Such an entry is recognized by comparing the bytes of
  /// its key and scalar value in both files, without decoding them, hashing its key or touching
  /// the values in memory; only the other entries are decoded.
  ///
  /// - Parameters:
  ///   - data: The file now; it passed ``PropertyListValidator``.
  ///   - old: The file before (it was read or written as `previous`).
  ///   - previous: The top dictionary of `old`.
  /// - Returns: The keys set (with their values) and removed, or nil when the files do not share
  ///   most entries (another writer rewrote the file) or a top object is not a dictionary: read
  ///   the whole file then.
  /// - Throws: ``PropertyListRejection`` when `data` is not a consistent binary property list.
  static func changes(of data: Data, since old: Data, previous: [String: Any])
    throws(PropertyListRejection) -> (set: [String: Any], removed: [String])?
  {
    do {
      return try data.withUnsafeBytes { new in
        try old.withUnsafeBytes { old in
          try BinaryPropertyListReader(bytes: new).changes(
            since: try BinaryPropertyListReader(bytes: old), previous: previous)
        }
      }
    } catch let rejection as PropertyListRejection {
      throw rejection
    } catch {
      throw PropertyListRejection(reason: "\(error)")
    }
  }

  private func changes(since old: BinaryPropertyListReader, previous: [String: Any])
    throws(PropertyListRejection) -> (set: [String: Any], removed: [String])?
  {
    guard let (start, count) = try topDictionaryEntries(),
      let (oldStart, oldCount) = try old.topDictionaryEntries(), oldCount == previous.count
    else { return nil }
    var touched: [Int] = []
    for position in 0..<max(count, oldCount) {
      guard position < count, position < oldCount,
        try sameScalar(
          try reference(start, position), in: old, try old.reference(oldStart, position)),
        try sameScalar(
          try reference(start, count + position), in: old,
          try old.reference(oldStart, oldCount + position))
      else {
        touched.append(position)
        // Another writer rewrote the file: reading it whole is as cheap.
        if touched.count > 64 + max(count, oldCount) / 8 { return nil }
        continue
      }
    }
    var set: [String: Any] = [:]
    var oldKeys = Set<String>()
    for position in touched {
      if position < oldCount {
        oldKeys.insert(
          try old.string(at: try old.objectOffset(try old.reference(oldStart, position))))
      }
    }
    for position in touched where position < count {
      let key = try string(at: try objectOffset(try reference(start, position)))
      // A key also held at an entry that did not change (a key twice): read the whole file.
      guard set[key] == nil, previous[key] == nil || oldKeys.contains(key) else { return nil }
      set[key] = try value(try reference(start, count + position), depth: 2)
    }
    return (set, oldKeys.filter { set[$0] == nil })
  }

  /// The start of the top dictionary's references and its count of entries, or nil when the top
  /// object is not a dictionary.
  func topDictionaryEntries() throws(PropertyListRejection) -> (start: Int, count: Int)? {
    let offset = try objectOffset(topObject)
    guard bytes[offset] >> 4 == 0xD else { return nil }
    let (start, count) = try lengthAndStart(offset, Int(bytes[offset] & 0x0F))
    try require(start, 2 * count * referenceSize)
    return (start, count)
  }

  /// Whether object `index` is a scalar whose bytes are those of object `oldIndex` of `old`.
  private func sameScalar(_ index: Int, in old: BinaryPropertyListReader, _ oldIndex: Int)
    throws(PropertyListRejection) -> Bool
  {
    guard let range = try scalarRange(index), let oldRange = try old.scalarRange(oldIndex),
      range.count == oldRange.count
    else { return false }
    return memcmp(
      bytes.baseAddress! + range.lowerBound, old.bytes.baseAddress! + oldRange.lowerBound,
      range.count) == 0
  }

  /// The bytes of object `index` (marker included) when it is a scalar; nil for a container.
  private func scalarRange(_ index: Int) throws(PropertyListRejection) -> Range<Int>? {
    let offset = try objectOffset(index)
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    let size: Int
    switch marker >> 4 {
    case 0x0: size = 0
    case 0x1: size = 1 << min(low, 4)
    case 0x2, 0x3: size = 1 << min(low, 3)
    case 0x4, 0x5, 0x6:
      let (start, count) = try lengthAndStart(offset, low)
      size = start - offset - 1 + (marker >> 4 == 0x6 ? 2 * count : count)
    default: return nil
    }
    try require(offset, 1 + size)
    return offset..<offset + 1 + size
  }
}

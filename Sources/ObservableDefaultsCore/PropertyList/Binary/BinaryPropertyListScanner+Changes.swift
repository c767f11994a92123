import Foundation

extension BinaryPropertyListScanner {
  /// The entries of the top dictionary of `data` that differ from those of the previous version
  /// of the file, told apart by their fingerprints, in the one pass that checks the file.
  ///
  /// A writer that changes a few keys of a large file (this package's, through
  /// ``BinaryPropertyListDraft``) leaves every other entry of the top dictionary at its position,
  /// with the same key and value objects. Such an entry is checked and recognized by the
  /// fingerprint of its bytes, without decoding it, hashing its key into a dictionary or touching
  /// the values in memory; only the other entries are decoded. A data value that is most of the
  /// file is not copied out of `data` (``value(of:sharing:)``).
  ///
  /// - Parameters:
  ///   - data: The file now.
  ///   - old: The entries of the previous version.
  ///   - previous: The top dictionary of the previous version.
  /// - Returns: The keys set (with their values) and removed, and the entries of `data`; nil
  ///   when the versions do not share most entries (another writer rewrote the file: the scan
  ///   stops as soon as that is known), a key is held twice, or a top object is not a
  ///   dictionary: read the whole file then.
  /// - Throws: ``PropertyListRejection`` when `data` is refused.
  static func changes(
    of data: Data, since old: PropertyListEntries, previous: [PropertyListKey: Any]
  ) throws(PropertyListRejection)
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    try scanning(data) { scanner throws(PropertyListRejection) in
      try scanner.changes(since: old, previous: previous, file: data)
    }
  }

  mutating func changes(
    since old: PropertyListEntries, previous: [PropertyListKey: Any], file: Data
  ) throws(PropertyListRejection)
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    guard old.keys.count == previous.count, let top = try topDictionary() else { return nil }
    let oldCount = old.keys.count
    let maximumTouched = PropertyListEntries.maximumTouched(count: top.count, oldCount: oldCount)
    var touched = max(0, oldCount - top.count)
    guard touched <= maximumTouched else { return nil }
    var fingerprints: [UInt64] = []
    fingerprints.reserveCapacity(capacity(for: top.count))
    var touchedEntries: [Int: (key: Scalar, item: Item)] = [:]
    let bytes = bytes
    let isRead = try forEachEntry(at: 0..<top.count, of: top, depth: 1) {
      position, key, _, _, item in
      let fingerprint = Self.fingerprint(key, item, in: bytes)
      fingerprints.append(fingerprint)
      guard !old.isUnchanged(at: position, fingerprint: fingerprint) else { return true }
      touched += 1
      guard touched <= maximumTouched else { return false }
      touchedEntries[position] = (key, item)
      return true
    }
    guard isRead else { return nil }
    try requireObjectAreaMostlyReached()
    let decoded = touchedEntries.mapValues {
      (PropertyListKey($0.key.string(in: bytes)), value(of: $0.item, sharing: file))
    }
    let positions = decoded.keys.sorted() + Array(top.count..<max(top.count, oldCount))
    return try old.changes(touched: positions, fingerprints: fingerprints, previous: previous) {
      position throws(PropertyListRejection) in
      guard let entry = decoded[position] else {
        throw BinaryPropertyListLayout.rejection(
          "entry \(position) of the top dictionary was not read")
      }
      return entry
    }
  }

  /// The value of `item`, an object of `file` (these bytes): a data value of
  /// ``SystemMemory/hugePageThreshold`` bytes or more that is at least half of the file is a
  /// `Data` over the file's own bytes, which it keeps (they are a block of the file's read,
  /// never written after it), instead of a copy. A re-read of a 50 MB value copied it out of
  /// the file's 50 MB just read (a new block: 50 MB of page faults, then the copy); holding
  /// the file keeps at most as many bytes again as the value's.
  func value(of item: Item, sharing file: Data) -> Any {
    guard case .scalar(let scalar) = item, scalar.marker >> 4 == 0x4,
      scalar.end - scalar.start >= SystemMemory.hugePageThreshold,
      2 * (scalar.end - scalar.start) >= bytes.count, let base = bytes.baseAddress
    else { return value(of: item) }
    return Data(
      bytesNoCopy: UnsafeMutableRawPointer(mutating: base + scalar.start),
      count: scalar.end - scalar.start,
      deallocator: .custom { _, _ in withExtendedLifetime(file) {} })
  }
}

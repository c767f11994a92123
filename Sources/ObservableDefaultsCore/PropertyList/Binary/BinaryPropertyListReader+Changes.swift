import Foundation

extension BinaryPropertyListReader {
  /// The entries of the top dictionary of `data` that differ from those of the previous version
  /// of the file, told apart by their fingerprints.
  ///
  /// A writer that changes a few keys of a large file (this package's, through
  /// ``BinaryPropertyListDraft``) leaves every other entry of the top dictionary at its position,
  /// with the same key and value objects. Such an entry is recognized by the fingerprint of its
  /// bytes, without decoding it, hashing its key into a dictionary or touching the values in
  /// memory; only the other entries are decoded.
  ///
  /// - Parameters:
  ///   - data: The file now; it passed ``PropertyListValidator``.
  ///   - old: The entries of the previous version.
  ///   - previous: The top dictionary of the previous version.
  /// - Returns: The keys set (with their values) and removed, and the entries of `data`; nil
  ///   when the versions do not share most entries (another writer rewrote the file), a key is
  ///   held twice, or a top object is not a dictionary: read the whole file then.
  /// - Throws: ``PropertyListRejection`` when `data` is not a consistent binary property list.
  static func changes(
    of data: Data, since old: PropertyListEntries, previous: [PropertyListKey: Any]
  ) throws(PropertyListRejection)
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    try reading(data) { reader throws(PropertyListRejection) in
      try reader.changes(since: old, previous: previous)
    }
  }

  private func changes(since old: PropertyListEntries, previous: [PropertyListKey: Any])
    throws(PropertyListRejection)
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    guard let (start, count) = try topDictionaryEntries(), old.keys.count == previous.count else {
      return nil
    }
    var fingerprints: [UInt64] = []
    fingerprints.reserveCapacity(count)
    for position in 0..<count {
      fingerprints.append(
        try fingerprint(try reference(start, position), try reference(start, count + position)))
    }
    guard let touched = old.touchedPositions(fingerprints) else { return nil }
    return try old.changes(touched: touched, fingerprints: fingerprints, previous: previous) {
      position throws(PropertyListRejection) in
      (
        PropertyListKey(try string(at: try objectOffset(try reference(start, position)))),
        try value(try reference(start, count + position), depth: 2)
      )
    }
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

  /// The fingerprint of the entry whose key is object `key` and whose value is object `value`.
  func fingerprint(_ key: Int, _ value: Int) throws(PropertyListRejection) -> UInt64 {
    guard let keyRange = try scalarRange(key) else { throw Self.inconsistent() }
    let valueRange = try scalarRange(value)
    return PropertyListEntries.fingerprint(
      key: UnsafeRawBufferPointer(rebasing: bytes[keyRange]),
      value: valueRange.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) })
  }

  /// The bytes of object `index` (marker included) when it is a scalar; nil for a container.
  func scalarRange(_ index: Int) throws(PropertyListRejection) -> Range<Int>? {
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

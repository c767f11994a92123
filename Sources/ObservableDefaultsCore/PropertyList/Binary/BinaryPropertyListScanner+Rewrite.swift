import Foundation

extension BinaryPropertyListScanner {
  /// The entries of the top dictionary of `data` that differ from `previous`, read whole: for a
  /// reader that keeps the values itself (a suite's storage) and finds the file rewritten by
  /// another writer (its entries moved, so ``changes(of:since:previous:)`` cannot tell them
  /// apart by position).
  ///
  /// Each entry is checked and compared with `previous` as ``value(of:comparingTo:)`` does (an
  /// unchanged string is compared with the file's bytes, not decoded), but only the values that
  /// differ are kept: no second dictionary of every value is built beside `previous`. At a
  /// million keys that dictionary was 2^21 buckets of 48 bytes, held until the merge, and the
  /// heap kept part of it afterwards.
  ///
  /// - Parameters:
  ///   - data: The file now.
  ///   - previous: The values read or written before.
  /// - Returns: The keys set (with their values) and removed since `previous`, and the entries of
  ///   `data` (for the next re-read); nil when the top object is not a dictionary or a key is
  ///   held twice: ``value(of:comparingTo:)`` reads it then.
  /// - Throws: ``PropertyListRejection`` when `data` is refused.
  static func changes(of data: Data, comparingTo previous: [PropertyListKey: Any])
    throws(PropertyListRejection)
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    try scanning(data) { scanner throws(PropertyListRejection) in
      try scanner.topDictionaryChanges(comparingTo: previous)
    }
  }

  /// The work of ``changes(of:comparingTo:)``.
  private mutating func topDictionaryChanges(comparingTo previous: [PropertyListKey: Any])
    throws(PropertyListRejection)
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    guard let top = try topDictionary() else { return nil }
    var set: [PropertyListKey: Any] = [:]
    var keptKeys = 0
    let entries = try comparedEntries(of: top, with: previous) { key, old, value, isChanged in
      if old != nil { keptKeys += 1 }
      if isChanged { set[key] = value }
    }
    // Every position was taken as a key's first: true when no key is held twice, which is
    // checked once the file is (its first value would be the one kept).
    guard PropertyListEntries.areDistinct(entries.keys) else { return nil }
    try requireObjectAreaMostlyReached()
    var removed: [PropertyListKey] = []
    if keptKeys < previous.count {
      let inFile = Set(entries.keys)
      removed = previous.keys.filter { !inFile.contains($0) }
    }
    return (set, removed, entries)
  }

  /// Walks the entries of `top` (the top dictionary), each checked, and compares each with its
  /// value in `previous`: calls `body` with its key, its value before (nil: none), its value now
  /// (the one before itself when equal, see ``compared(_:with:in:)``) and whether it changed.
  ///
  /// - Returns: Every position's key and fingerprint, a key held twice included.
  /// - Throws: ``PropertyListRejection`` when an entry is refused.
  mutating func comparedEntries(
    of top: Container, with previous: [PropertyListKey: Any],
    _ body: (_ key: PropertyListKey, _ old: Any?, _ value: Any, _ isChanged: Bool) -> Void
  ) throws(PropertyListRejection) -> PropertyListEntries {
    var entries = PropertyListEntries(keys: [], fingerprints: [])
    entries.keys.reserveCapacity(capacity(for: top.count))
    entries.fingerprints.reserveCapacity(capacity(for: top.count))
    let bytes = bytes
    _ = try forEachEntry(at: 0..<top.count, of: top, depth: 1) { _, keyScalar, _, _, item in
      let key = PropertyListKey(keyScalar.string(in: bytes))
      entries.keys.append(key)
      entries.fingerprints.append(Self.fingerprint(keyScalar, item, in: bytes))
      let old = previous[key]
      let (value, isChanged) = Self.compared(item, with: old, in: bytes)
      body(key, old, value, isChanged)
      return true
    }
    return entries
  }

  /// An entry's value now, `item`, against its value before, `old`: `old` itself when they are
  /// equal (a string is compared with the file's bytes, neither decoded nor allocated again),
  /// else the value decoded; and whether it changed. `bytes` are the file's.
  static func compared(_ item: Item, with old: Any?, in bytes: UnsafeRawBufferPointer)
    -> (value: Any, isChanged: Bool)
  {
    if let old, case .scalar(let scalar) = item, scalar.isASCIIString(equalTo: old, in: bytes) {
      return (old, false)
    }
    let value = value(of: item, in: bytes)
    if let old, propertyListValuesEqual(old, value) { return (old, false) }
    return (value, true)
  }
}

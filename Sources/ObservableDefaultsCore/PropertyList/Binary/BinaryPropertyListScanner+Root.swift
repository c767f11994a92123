import Foundation

extension BinaryPropertyListScanner {
  /// The value of the top object of `data` (a cloud record's value).
  ///
  /// - Parameter limits: The bounds of the work the bytes may ask for.
  /// - Throws: ``PropertyListRejection`` when the bytes are refused.
  static func value(of data: Data, limits: PropertyListLimits = .preferences)
    throws(PropertyListRejection) -> Any
  {
    try scanning(data, limits: limits) { scanner throws(PropertyListRejection) in
      try scanner.wholeValue()
    }
  }

  /// The top object of `data` as a file's root: a top dictionary is keyed by exact keys
  /// (``PropertyListKey``), so keys that differ only in Unicode normalization stay two entries;
  /// any other object is ``value(of:limits:)``'s.
  ///
  /// - Throws: ``PropertyListRejection`` when the bytes are refused.
  static func root(of data: Data) throws(PropertyListRejection) -> Any {
    try scanning(data) { scanner throws(PropertyListRejection) in try scanner.root() }
  }

  /// The top object, as ``root(of:)`` reads it.
  mutating func root() throws(PropertyListRejection) -> Any {
    guard let top = try topDictionary() else { return try wholeValue() }
    var root: [PropertyListKey: Any] = [:]
    root.reserveCapacity(capacity(for: top.count))
    try add(0..<top.count, of: top, depth: 1, to: &root)
    try requireObjectAreaMostlyReached()
    return root
  }

  /// The top object of `data`, as ``root(of:)`` reads it, giving back to the system the whole
  /// pages of `data`'s bytes that reading the top dictionary is done with, as it goes (see
  /// ``BinaryPropertyListPageRelease``): at a million keys, the file's bytes no longer add to the
  /// values built from them at the memory peak of an open.
  ///
  /// With `keepingEntries`, the top dictionary's entries are kept too (its keys, the same
  /// strings as the root's, and their fingerprints: ``PropertyListEntries``), so that the first
  /// re-read after another writer's change decodes only the entries that differ
  /// (``changes(of:since:previous:)``) instead of the whole file.
  ///
  /// - Parameters:
  ///   - data: Bytes no other `Data` shares (a file's bytes just read): the pages given back
  ///     read as zeros afterwards.
  ///   - keepingEntries: Whether to keep the top dictionary's entries.
  /// - Returns: The top object, how many pages were given back, and the entries when kept and
  ///   the top object is a dictionary.
  /// - Throws: ``PropertyListRejection`` when the bytes are refused.
  static func value(releasingPagesOf data: Data, keepingEntries: Bool = false)
    throws(PropertyListRejection)
    -> (root: Any, releasedPages: Int, entries: PropertyListEntries?)
  {
    try scanning(data) { scanner throws(PropertyListRejection) in
      guard let top = try scanner.topDictionary() else { return (try scanner.wholeValue(), 0, nil) }
      var root: [PropertyListKey: Any] = [:]
      root.reserveCapacity(scanner.capacity(for: top.count))
      var entries: PropertyListEntries?
      if keepingEntries {
        entries = PropertyListEntries(keys: [], fingerprints: [])
        entries?.keys.reserveCapacity(scanner.capacity(for: top.count))
        entries?.fingerprints.reserveCapacity(scanner.capacity(for: top.count))
      }
      guard var pages = BinaryPropertyListPageRelease(scanner: scanner, entries: top) else {
        try scanner.addTop(0..<top.count, of: top, to: &root, entries: &entries)
        try scanner.requireObjectAreaMostlyReached()
        return (root, 0, entries)
      }
      for first in stride(from: 0, to: top.count, by: BinaryPropertyListPageRelease.entriesAtOnce) {
        let positions = first..<min(first + BinaryPropertyListPageRelease.entriesAtOnce, top.count)
        try scanner.addTop(positions, of: top, to: &root, entries: &entries)
        pages.release(after: positions.upperBound - 1)
      }
      try scanner.requireObjectAreaMostlyReached()
      return (root, pages.releasedPages, entries)
    }
  }

  /// Adds the entries at `positions` of the top dictionary `top` to `root`, as
  /// ``add(_:of:depth:to:)`` does, and, when `entries` is kept, each position's key and
  /// fingerprint to it (a key held twice included: the next re-read then parses whole).
  private mutating func addTop(
    _ positions: Range<Int>, of top: Container, to root: inout [PropertyListKey: Any],
    entries: inout PropertyListEntries?
  ) throws(PropertyListRejection) {
    guard var kept = entries else { return try add(positions, of: top, depth: 1, to: &root) }
    entries = nil
    let bytes = bytes
    _ = try forEachEntry(at: positions, of: top, depth: 1) { _, keyScalar, _, _, item in
      let key = PropertyListKey(keyScalar.string(in: bytes))
      kept.keys.append(key)
      kept.fingerprints.append(Self.fingerprint(keyScalar, item, in: bytes))
      if let first = root.updateValue(Self.value(of: item, in: bytes), forKey: key) {
        root[key] = first
      }
      return true
    }
    entries = kept
  }

  /// The value of the top object of `data`, read again after a change: when it is a dictionary,
  /// each of its values that equals `previous`'s value for the key is `previous`'s value itself
  /// (strings are compared with the file's bytes, so unchanged ones are neither decoded nor
  /// allocated again), and `changedKeys` names every key added, changed or removed since
  /// `previous`.
  ///
  /// `entries` are the dictionary's entries, for the next re-read (see
  /// ``changes(of:since:previous:)``).
  ///
  /// - Parameter previous: The values read or written before.
  /// - Returns: The top object, and nil keys and entries when it is not a dictionary.
  /// - Throws: ``PropertyListRejection`` when the bytes are refused.
  static func value(of data: Data, comparingTo previous: [PropertyListKey: Any])
    throws(PropertyListRejection)
    -> (root: Any, changedKeys: Set<PropertyListKey>?, entries: PropertyListEntries?)
  {
    try scanning(data) { scanner throws(PropertyListRejection) in
      if let reread = try scanner.topDictionary(comparingTo: previous) {
        try scanner.requireObjectAreaMostlyReached()
        return reread
      }
      return (try scanner.wholeValue(), nil, nil)
    }
  }

  /// The fingerprint of an entry whose key is `key` and whose value is `value`, objects of
  /// `bytes` (see ``PropertyListEntries``).
  static func fingerprint(_ key: Scalar, _ value: Item, in bytes: UnsafeRawBufferPointer) -> UInt64
  {
    let valueBytes: UnsafeRawBufferPointer?
    if case .scalar(let scalar) = value {
      valueBytes = UnsafeRawBufferPointer(rebasing: bytes[scalar.range])
    } else {
      valueBytes = nil
    }
    return PropertyListEntries.fingerprint(
      key: UnsafeRawBufferPointer(rebasing: bytes[key.range]), value: valueBytes)
  }

  /// The top dictionary read against `previous`, with its entries (see
  /// ``value(of:comparingTo:)``), or nil when the top object is not a dictionary.
  private mutating func topDictionary(comparingTo previous: [PropertyListKey: Any])
    throws(PropertyListRejection)
    -> (root: Any, changedKeys: Set<PropertyListKey>?, entries: PropertyListEntries?)?
  {
    guard let top = try topDictionary() else { return nil }
    var dictionary: [PropertyListKey: Any] = [:]
    dictionary.reserveCapacity(capacity(for: top.count))
    var changedKeys = Set<PropertyListKey>()
    var keptKeys = 0
    let entries = try comparedEntries(of: top, with: previous) { key, old, element, isChanged in
      // Two lookups per key: the insertion tells a key held twice, whose first value is kept.
      if let first = dictionary.updateValue(element, forKey: key) {
        dictionary[key] = first
        return
      }
      if old != nil { keptKeys += 1 }
      if isChanged { changedKeys.insert(key) }
    }
    if keptKeys < previous.count {
      for key in previous.keys where dictionary.index(forKey: key) == nil {
        changedKeys.insert(key)
      }
    }
    return (dictionary, changedKeys, entries)
  }

  /// The value of an object checked by ``item(_:depth:)``.
  func value(of item: Item) -> Any {
    Self.value(of: item, in: bytes)
  }

  /// The value of an object of `bytes` checked by ``item(_:depth:)``.
  static func value(of item: Item, in bytes: UnsafeRawBufferPointer) -> Any {
    switch item {
    case .scalar(let scalar): scalar.value(in: bytes)
    case .container(let value): value
    }
  }
}

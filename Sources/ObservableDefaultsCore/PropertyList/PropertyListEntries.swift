/// What a re-read needs of the previous version of a file: the entries of its top dictionary,
/// by position, as keys and fingerprints.
///
/// A fingerprint is a 64-bit hash (seeded per process, see ``ByteHash``) of an entry's bytes as
/// the file's format holds them: in a binary file, of its key object and of its value object
/// when that is a scalar (0 when it is a container, whose bytes are only references, which a
/// re-read always decodes); in an XML file, of its text from its key's to the end of its value
/// element (``XMLPropertyListEntries/fingerprint(key:value:in:)``). Two entries with the same fingerprint hold the same key and
/// value. Kept instead of the file's bytes: 8 bytes and a key per entry.
struct PropertyListEntries {
  /// The keys, by position.
  var keys: [PropertyListKey]
  /// The fingerprints, by position.
  var fingerprints: [UInt64]
  /// For an XML file, where each entry's text is (nil for a binary file): the next flush edits
  /// the text at these places instead of scanning it again.
  var layout: XMLPropertyListLayout?

  /// The fingerprint of an entry whose key's bytes are `key` and whose value's are `value` (nil
  /// for a binary container).
  static func fingerprint(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer?) -> UInt64 {
    fingerprint(key: key, valueHash: value.map { ByteHash.of($0.baseAddress!, $0.count) })
  }

  /// ``fingerprint(key:value:)`` of a value whose bytes' ``ByteHash`` is `valueHash`.
  static func fingerprint(key: UnsafeRawBufferPointer, valueHash: UInt64?) -> UInt64 {
    guard let valueHash else { return 0 }
    return ByteHash.of(key.baseAddress!, key.count) &* 0x9E37_79B9_7F4A_7C15 ^ valueHash
  }

  /// Whether no key is held twice.
  ///
  /// Each key's ``ByteHash`` (seeded per process, so no file can be made to collide on purpose)
  /// goes into an open-addressing table of positions; keys are compared only when their hashes
  /// meet. A `Set<String>` of a 1,000,000-key suite's keys, hashed again by `Hasher`, was 12 % of
  /// an XML flush.
  static func areDistinct(_ keys: [PropertyListKey]) -> Bool {
    let capacity = 1 << (Int.bitWidth - max(15, 2 * keys.count - 1).leadingZeroBitCount)
    let mask = capacity - 1
    var slots = [Int32](repeating: -1, count: capacity)
    var hashes: [UInt64] = []
    hashes.reserveCapacity(keys.count)
    for (position, key) in keys.enumerated() {
      var text = key.string
      let hash = text.withUTF8 { ByteHash.of(UnsafeRawBufferPointer($0)) }
      hashes.append(hash)
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] >= 0 {
        let other = Int(slots[slot])
        if hashes[other] == hash, keys[other] == key { return false }
        slot = (slot + 1) & mask
      }
      slots[slot] = Int32(position)
    }
    return true
  }

  /// The positions of a new version's entries (their `fingerprints`) that differ from this
  /// version's: a changed fingerprint, a container, or a position only one version has.
  ///
  /// - Returns: nil when more than ``maximumTouched(count:oldCount:)`` entries differ: another
  ///   writer rewrote the file, and reading it whole is as cheap.
  func touchedPositions(_ fingerprints: [UInt64]) -> [Int]? {
    let (count, oldCount) = (fingerprints.count, keys.count)
    let maximum = Self.maximumTouched(count: count, oldCount: oldCount)
    var touched: [Int] = []
    for position in 0..<max(count, oldCount) {
      guard position < count, isUnchanged(at: position, fingerprint: fingerprints[position])
      else {
        touched.append(position)
        if touched.count > maximum { return nil }
        continue
      }
    }
    return touched
  }

  /// Whether a new version's entry at `position`, whose fingerprint is `fingerprint`, is this
  /// version's entry at that position, unchanged (never for a container, whose fingerprint is 0).
  func isUnchanged(at position: Int, fingerprint: UInt64) -> Bool {
    position < keys.count && fingerprint != 0 && fingerprint == fingerprints[position]
  }

  /// The most entries that may differ between versions of `count` and `oldCount` entries before
  /// reading the new one whole is as cheap: 64 and an eighth of the larger.
  static func maximumTouched(count: Int, oldCount: Int) -> Int {
    64 + max(count, oldCount) / 8
  }

  /// The changes of a new version whose entries differ from this version's at `touched`
  /// (``touchedPositions(_:)``), reading each touched entry's key and value with `entry`.
  ///
  /// - Parameters:
  ///   - fingerprints: The new version's fingerprints.
  ///   - previous: The top dictionary of this version (as many keys as ``keys``).
  ///   - entry: The key and value of the new version's entry at a position.
  /// - Returns: The keys set (with their values) and removed, and the new version's entries;
  ///   nil when a key is held twice (at a touched entry and at one that did not change, or at
  ///   two touched ones): read the whole file then.
  func changes<Failure: Error>(
    touched: [Int], fingerprints: [UInt64], previous: [PropertyListKey: Any],
    entry: (Int) throws(Failure) -> (key: PropertyListKey, value: Any)
  ) throws(Failure)
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    let count = fingerprints.count
    var entries = PropertyListEntries(keys: Array(keys.prefix(count)), fingerprints: fingerprints)
    var set: [PropertyListKey: Any] = [:]
    let oldKeys = Set(touched.lazy.filter { $0 < self.keys.count }.map { self.keys[$0] })
    for position in touched where position < count {
      let (key, value) = try entry(position)
      guard set[key] == nil, previous[key] == nil || oldKeys.contains(key) else { return nil }
      set[key] = value
      if position < entries.keys.count {
        entries.keys[position] = key
      } else {
        entries.keys.append(key)
      }
    }
    return (set, oldKeys.filter { set[$0] == nil }, entries)
  }
}

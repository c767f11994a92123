import Foundation

/// Where a few keys' entries are in the top dictionary of an XML property list, found by the
/// scan that checks the whole text (``XMLPropertyListScanner``) without building anything per
/// entry: each plain key's text (no reference, CDATA section or carriage return; checked as
/// UTF-8 by the scan) is compared with the keys' UTF-8 bytes, which is exact, as keys are.
///
/// For a process that writes a few keys and keeps nothing of the file
/// (``XMLPropertyListEdit/applyingChecked(_:to:)``): at 1,000,000 keys the entries, their
/// fingerprints and a `String` per key that ``XMLPropertyListEntries`` keeps for a re-read were
/// most of such a write.
struct XMLPropertyListPlaces {
  /// The keys looked for, as UTF-8.
  let keys: [[UInt8]]
  /// Where the entry of `keys[i]` is, by `i`.
  private(set) var found: [Int: Place] = [:]
  /// Whether the top dictionary is in the plain form ``XMLPropertyListEntries`` scans: only
  /// white space between its entries and between each key and its value, every key plain.
  var isPlain = true
  /// Whether one of the keys is held twice.
  private(set) var isHeldTwice = false
  /// Where the last entry's value element ends (where an entry is added), or where the
  /// dictionary's contents begin when it has none; nil until the top dictionary's contents are
  /// read (an empty `<dict/>` or another root has none).
  var end: Int?

  /// An entry found.
  struct Place {
    /// Its value element.
    let value: Range<Int>
    /// What removing the entry takes away: the entry and the white space before it (back to the
    /// value before it, or `<dict>`).
    let removal: Range<Int>
  }

  /// The first and last 8 bytes of each of `keys` of 8 bytes or more (else 0), compared before
  /// the whole key: keys of one length often share their start (`key-000001`, `key-000002`), so
  /// a key's last word tells most of them apart without a `memcmp` call.
  private let ends: [(first: UInt64, last: UInt64)]

  /// Looks for `keys`.
  init(_ keys: [PropertyListKey]) {
    self.keys = keys.map { Array($0.string.utf8) }
    ends = self.keys.map { key in
      guard key.count >= 8 else { return (0, 0) }
      return key.withUnsafeBytes { Self.ends(of: $0.baseAddress!, count: key.count) }
    }
  }

  /// The first and last 8 bytes of the `count` (8 or more) bytes at `base`.
  @inline(__always)
  private static func ends(of base: UnsafeRawPointer, count: Int) -> (first: UInt64, last: UInt64) {
    (
      base.loadUnaligned(as: UInt64.self),
      base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    )
  }

  /// Notes the entry whose key's text is `key` and whose value element is `value`, after the
  /// value element (or `<dict>`) ending at `previousEnd`.
  @inline(__always)
  mutating func note(
    key: Range<Int>, value: Range<Int>, after previousEnd: Int, in bytes: UnsafeRawBufferPointer
  ) {
    let text = UnsafeRawBufferPointer(rebasing: bytes[key])
    for index in keys.indices where keys[index].count == text.count {
      if text.count >= 8 {
        let (first, last) = Self.ends(of: text.baseAddress!, count: text.count)
        guard first == ends[index].first, last == ends[index].last else { continue }
      }
      guard text.isEmpty || memcmp(keys[index], text.baseAddress!, text.count) == 0 else {
        continue
      }
      if found[index] != nil { isHeldTwice = true }
      found[index] = Place(value: value, removal: previousEnd..<value.upperBound)
    }
  }
}

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

  /// Looks for `keys`.
  init(_ keys: [PropertyListKey]) {
    self.keys = keys.map { Array($0.string.utf8) }
  }

  /// Notes the entry whose key's text is `key` and whose value element is `value`, after the
  /// value element (or `<dict>`) ending at `previousEnd`.
  mutating func note(
    key: Range<Int>, value: Range<Int>, after previousEnd: Int, in bytes: UnsafeRawBufferPointer
  ) {
    let text = UnsafeRawBufferPointer(rebasing: bytes[key])
    for (index, wanted) in keys.enumerated() where wanted.count == text.count {
      guard text.isEmpty || memcmp(wanted, text.baseAddress!, text.count) == 0 else { continue }
      if found[index] != nil { isHeldTwice = true }
      found[index] = Place(value: value, removal: previousEnd..<value.upperBound)
    }
  }
}

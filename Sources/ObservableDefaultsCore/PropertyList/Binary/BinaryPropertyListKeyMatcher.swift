import Foundation

/// Top-level keys sought among the key objects of a binary property list, by their bytes: each
/// key as an ASCII object holds it (its UTF-8; compared only with ASCII objects) and as a UTF-16
/// one (UTF-16 big-endian), compared exactly, as the keys are.
///
/// The one-shot write's check (``BinaryPropertyListSplice``) asks it about every key object of the
/// top dictionary. Most are told apart by their length; in a suite whose keys all have the sought
/// key's length (`key-000000` …), by their last 8 bytes (one load, no call): `memcmp` is left for
/// the key itself. Comparing every key of the sought length whole was a sixth of the check.
struct BinaryPropertyListKeyMatcher {
  /// One key in one object form.
  private struct Form {
    /// The key's index among the keys sought.
    let key: Int
    /// Whether these are a UTF-16 object's bytes (else an ASCII one's).
    let isUTF16: Bool
    let bytes: [UInt8]
    /// Its last bytes, up to 8, as ``tail(ofBytesBefore:count:in:)`` reads them from a file.
    let tail: UInt64
  }

  private let forms: [Form]

  /// A matcher of `keys`.
  init(_ keys: [PropertyListKey]) {
    var forms: [Form] = []
    for (index, key) in keys.enumerated() {
      let utf16 = key.string.utf16.flatMap {
        [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)]
      }
      for (isUTF16, bytes) in [(false, Array(key.string.utf8)), (true, utf16)] {
        let tail = bytes.suffix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        forms.append(Form(key: index, isUTF16: isUTF16, bytes: bytes, tail: tail))
      }
    }
    self.forms = forms
  }

  /// The index of the key sought whose bytes the string object `key` (of `bytes`, a binary
  /// property list) holds, or nil. At most one does: the keys are distinct, and an object is
  /// compared only with the form of its kind.
  @inline(__always)
  func match(_ key: BinaryPropertyListScanner.Scalar, in bytes: UnsafeRawBufferPointer) -> Int? {
    let count = key.end - key.start
    let isUTF16 = key.marker >> 4 == 0x6
    let tail = Self.tail(ofBytesBefore: key.end, count: count, in: bytes)
    return forms.first {
      $0.tail == tail && $0.bytes.count == count && $0.isUTF16 == isUTF16
        && (count == 0 || memcmp($0.bytes, bytes.baseAddress! + key.start, count) == 0)
    }?.key
  }

  /// The last `count` bytes (up to 8) before byte `end` of `bytes`, the last one highest: one
  /// load of the 8 bytes before `end` (an object's contents end at byte 9 or later, after the
  /// header and a marker).
  @inline(__always)
  private static func tail(ofBytesBefore end: Int, count: Int, in bytes: UnsafeRawBufferPointer)
    -> UInt64
  {
    let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
    return count >= 8 ? word : word >> UInt64(8 * (8 - count))
  }
}

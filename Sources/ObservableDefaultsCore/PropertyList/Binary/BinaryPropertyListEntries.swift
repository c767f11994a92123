/// What a re-read needs of the previous version of a binary file: the entries of its top
/// dictionary, in the order of their references, as keys and fingerprints.
///
/// A fingerprint is a 64-bit hash (seeded per process, see
/// ``BinaryPropertyListObjectTable/hash(_:_:)``) of the bytes of an entry's key object and of its
/// value object when that is a scalar; 0 when the value is a container (whose bytes are only
/// references), which a re-read always decodes. Two entries with the same fingerprint hold the
/// same key and value. Kept instead of the file's bytes: 8 bytes and a key per entry.
struct BinaryPropertyListEntries {
  /// The keys, by position.
  var keys: [String]
  /// The fingerprints, by position.
  var fingerprints: [UInt64]

  /// The fingerprint of an entry whose key object's bytes are `key` and whose value object's are
  /// `value` (nil for a container).
  static func fingerprint(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer?) -> UInt64 {
    guard let value else { return 0 }
    let keyHash = ByteHash.of(key.baseAddress!, key.count)
    return keyHash &* 0x9E37_79B9_7F4A_7C15
      ^ ByteHash.of(value.baseAddress!, value.count)
  }
}

import Foundation

/// The package's one fast hash of bytes: equal scalars in the binary writer's object table,
/// per-entry fingerprints of a suite, and the fingerprint of a whole file version.
///
/// Seeded once per process at random, so no file can be made to collide on purpose; not a
/// cryptographic hash, and never stored.
enum ByteHash {
  /// A per-process random seed, so no file can be made to collide on purpose.
  private static let seed = UInt64.random(in: 1...UInt64.max)

  /// A 64-bit hash of `count` bytes: 8 bytes per multiply (SipHash, `Hasher`'s, was a quarter of
  /// a flush's instructions).
  static func of(_ bytes: UnsafeRawPointer, _ count: Int) -> UInt64 {
    var hash = seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
    var offset = 0
    while offset + 8 <= count {
      hash =
        (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        &* 0xBF58_476D_1CE4_E5B9
      hash ^= hash >> 31
      offset += 8
    }
    var tail: UInt64 = 0
    while offset < count {
      tail = tail << 8 | UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self))
      offset += 1
    }
    hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
    hash ^= hash >> 29
    hash &*= 0xBF58_476D_1CE4_E5B9
    return hash ^ (hash >> 32)
  }

  /// The hash of `data`'s bytes.
  static func of(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return of(UnsafeRawPointer(bitPattern: 1)!, 0) }
      return of(base, bytes.count)
    }
  }
}

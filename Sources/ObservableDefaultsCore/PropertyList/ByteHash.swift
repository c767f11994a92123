import Foundation

/// The package's one fast hash of bytes: equal scalars in the binary writer's object table,
/// per-entry fingerprints of a suite, and the fingerprint of a whole file version.
///
/// Seeded once per process at random, so no file can be made to collide on purpose; not a
/// cryptographic hash, and never stored.
struct ByteHash {
  /// A per-process random seed, so no file can be made to collide on purpose.
  private static let seed = UInt64.random(in: 1...UInt64.max)

  /// The state of the four lanes that take 32 bytes at a time, so that the multiplies of a large
  /// value (a whole file version, a 50 MB data value) overlap instead of waiting for each other.
  private var lanes: (UInt64, UInt64, UInt64, UInt64)
  private let count: Int

  /// A hash of `count` bytes, to be given in pieces: ``combine(_:_:)``, then ``finalize(_:_:)``.
  init(count: Int) {
    let start = Self.seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
    lanes = (
      start, start ^ 0x6A09_E667_F3BC_C908, start ^ 0xBB67_AE85_84CA_A73B,
      start ^ 0x3C6E_F372_FE94_F82B
    )
    self.count = count
  }

  /// Takes `length` bytes, a multiple of 32, that follow those taken before.
  mutating func combine(_ bytes: UnsafeRawPointer, _ length: Int) {
    var offset = 0
    while offset + 32 <= length {
      lanes.0 = Self.mix(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      lanes.1 = Self.mix(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
      lanes.2 = Self.mix(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
      lanes.3 = Self.mix(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
      offset += 32
    }
  }

  /// The hash, given the last `length` bytes (fewer than 32).
  func finalize(_ bytes: UnsafeRawPointer, _ length: Int) -> UInt64 {
    var hash =
      count >= 32 ? Self.mix(Self.mix(Self.mix(lanes.0, lanes.1), lanes.2), lanes.3) : lanes.0
    var offset = 0
    while offset + 8 <= length {
      hash = Self.mix(hash, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    var tail: UInt64 = 0
    while offset < length {
      tail = tail << 8 | UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self))
      offset += 1
    }
    hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
    hash ^= hash >> 29
    hash &*= 0xBF58_476D_1CE4_E5B9
    return hash ^ (hash >> 32)
  }

  /// One step of a lane: the word mixed into the state (8 bytes per multiply: SipHash,
  /// `Hasher`'s, was a quarter of a flush's instructions).
  @inline(__always)
  private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
    let product = (state ^ word) &* 0xBF58_476D_1CE4_E5B9
    return product ^ (product >> 31)
  }

  /// A 64-bit hash of `count` bytes.
  static func of(_ bytes: UnsafeRawPointer, _ count: Int) -> UInt64 {
    var hash = ByteHash(count: count)
    let blocks = count & ~31
    hash.combine(bytes, blocks)
    return hash.finalize(bytes + blocks, count - blocks)
  }

  /// The hash of the bytes of `header` (fewer than 32) followed by those of `body`, as
  /// ``of(_:_:)`` hashes them one after the other, without putting them together: a binary
  /// property list's large data object is its marker and length, then the value's own bytes.
  static func of(_ header: UnsafeRawBufferPointer, followedBy body: UnsafeRawBufferPointer)
    -> UInt64
  {
    precondition(header.count < 32)
    let total = header.count + body.count
    var hash = ByteHash(count: total)
    // The header and the start of the body, up to the first 32 bytes, through a buffer.
    return withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { first in
      let base = first.baseAddress!
      first.copyMemory(from: header)
      let taken = min(body.count, 32 - header.count)
      if taken > 0 {
        (base + header.count).copyMemory(from: body.baseAddress!, byteCount: taken)
      }
      guard total >= 32 else { return hash.finalize(base, total) }
      hash.combine(base, 32)
      let rest = body.baseAddress! + taken
      let blocks = (body.count - taken) & ~31
      hash.combine(rest, blocks)
      return hash.finalize(rest + blocks, body.count - taken - blocks)
    }
  }

  /// The hash of `data`'s bytes.
  static func of(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { of($0) }
  }

  /// The hash of the bytes of `buffer` (which may have no base address when empty).
  static func of(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
    guard let base = buffer.baseAddress else { return of(UnsafeRawPointer(bitPattern: 1)!, 0) }
    return of(base, buffer.count)
  }
}

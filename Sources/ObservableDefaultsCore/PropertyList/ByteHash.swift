import Foundation

/// The package's one fast hash of bytes: equal scalars in the binary writer's object table,
/// per-entry fingerprints of a suite, and the fingerprint of a whole file version.
///
/// Seeded once per process at random, so no file can be made to collide on purpose; not a
/// cryptographic hash, and never stored.
struct ByteHash {
  /// A per-process random seed, so no file can be made to collide on purpose.
  private static let seed = UInt64.random(in: 1...UInt64.max)
  /// Per-process random keys of the two lanes' multiplies (``combine(_:_:)``): a word equal to
  /// its key empties its lane, so the keys must be as secret as the seed.
  private static let keys = (UInt64.random(in: 1...UInt64.max), UInt64.random(in: 1...UInt64.max))

  /// The state of the two lanes that take 16 bytes at a time each, so that the multiplies of a
  /// large value (a whole file version, a 50 MB data value) overlap instead of waiting for each
  /// other.
  private var lanes: (UInt64, UInt64)
  private let count: Int

  /// A hash of `count` bytes, to be given in pieces: ``combine(_:_:)``, then ``finalize(_:_:)``.
  init(count: Int) {
    let start = Self.seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
    lanes = (start, start ^ 0x6A09_E667_F3BC_C908)
    self.count = count
  }

  /// Takes `length` bytes, a multiple of 32, that follow those taken before.
  ///
  /// Each lane multiplies two words into 128 bits and folds the halves (wyhash's step, which
  /// Go's runtime uses for its maps): 16 bytes per multiply, about half an instruction a byte,
  /// where a multiply per 8 bytes took one. The lanes are copied out of `self` for the loop, so
  /// that they stay in registers whatever `bytes` may point to, and the second lane adds where
  /// the first one takes the exclusive or: two lanes of the same operations were made vector
  /// operations by the compiler, moved back and forth between registers at every step.
  mutating func combine(_ bytes: UnsafeRawPointer, _ length: Int) {
    let (firstKey, secondKey) = Self.keys
    var (first, second) = lanes
    var offset = 0
    while offset &+ 32 <= length {
      first = Self.fold(
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ firstKey,
        bytes.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self) ^ first)
      second = Self.fold(
        bytes.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self) &+ secondKey,
        bytes.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self) &+ second)
      offset &+= 32
    }
    lanes = (first, second)
  }

  /// The 128-bit product of `a` and `b`, its halves combined.
  @inline(__always)
  private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (high, low) = a.multipliedFullWidth(by: b)
    return high ^ low
  }

  /// The hash, given the last `length` bytes (fewer than 32).
  func finalize(_ bytes: UnsafeRawPointer, _ length: Int) -> UInt64 {
    var hash = count >= 32 ? Self.mix(Self.mix(lanes.0, 0), lanes.1) : lanes.0
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

  /// One step of the last bytes and of joining the lanes: the word mixed into the state (8 bytes
  /// per multiply: SipHash, `Hasher`'s, was a quarter of a flush's instructions).
  @inline(__always)
  private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
    let product = (state ^ word) &* 0xBF58_476D_1CE4_E5B9
    return product ^ (product >> 31)
  }

  /// A 64-bit hash of `count` bytes.
  static func of(_ bytes: UnsafeRawPointer, _ count: Int) -> UInt64 {
    if count >= SystemMemory.hugePageThreshold { largePasses?.note(count) }
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
    if total >= SystemMemory.hugePageThreshold { largePasses?.note(total) }
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

  /// Bytes handled at a time where a hash is taken beside a read or a write (``FileContents``,
  /// ``AtomicFileWriter``): small enough to be in the processor's cache still when hashed, a
  /// multiple of 32.
  static let pieceSize = 256 << 10

  /// For the tests that count passes over large values: the sizes of the hashes of
  /// ``SystemMemory/hugePageThreshold`` bytes or more taken in one call of ``of(_:_:)`` or
  /// ``of(_:followedBy:)`` (each a pass of its own over bytes in memory; the hash a read or a
  /// write takes piece by piece is not one) in the current task (nil, always, outside such a
  /// test).
  @TaskLocal static var largePasses: SystemMemory.LargeBlockLog?

  /// The ``ByteHash`` of bytes given in pieces of any length, one after the other: whole blocks
  /// of 32 bytes are hashed where they are, the bytes of a block split between two pieces are
  /// put together first.
  struct Pieces {
    private var hash: ByteHash
    /// The bytes of a block not yet whole, at the start of ``carried``.
    private var carried: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var carriedCount = 0

    /// A hash of `count` bytes in all, given to ``take(_:)``.
    init(count: Int) {
      hash = ByteHash(count: count)
    }

    /// Takes the next `bytes`.
    mutating func take(_ bytes: UnsafeRawBufferPointer) {
      guard var base = bytes.baseAddress else { return }
      var rest = bytes.count
      if carriedCount > 0 {
        let taken = Swift.min(rest, 32 - carriedCount)
        let count = carriedCount
        withUnsafeMutableBytes(of: &carried) {
          ($0.baseAddress! + count).copyMemory(from: base, byteCount: taken)
        }
        (carriedCount, base, rest) = (carriedCount + taken, base + taken, rest - taken)
        guard carriedCount == 32 else { return }
        let block = carried
        withUnsafeBytes(of: block) { hash.combine($0.baseAddress!, 32) }
        carriedCount = 0
      }
      let blocks = rest & ~31
      hash.combine(base, blocks)
      withUnsafeMutableBytes(of: &carried) {
        $0.baseAddress!.copyMemory(from: base + blocks, byteCount: rest - blocks)
      }
      carriedCount = rest - blocks
    }

    /// The hash of all the bytes taken (as many as given to ``init(count:)``).
    func finalize() -> UInt64 {
      withUnsafeBytes(of: carried) { hash.finalize($0.baseAddress!, carriedCount) }
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

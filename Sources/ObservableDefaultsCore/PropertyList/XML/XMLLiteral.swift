/// A tag of at most 16 bytes compared with two word loads and masks, not a `memcmp` call.
///
/// The tags are written as their bytes (little-endian words; `XMLPlainEntriesTests` checks each
/// against its text) in computed properties, which fold into constants where they are used: a
/// stored `static let` was a `swift_once` call at every use, and a tag made from its text at
/// every use was not folded (both about 3 M instructions of a one-shot write at 100,000 keys).
struct XMLLiteral {
  /// How many bytes it has.
  let count: Int
  private let low: UInt64
  private let high: UInt64

  /// The tag whose first 8 bytes are `low` and next ones `high` (little-endian), `count` in all.
  @inline(__always)
  private init(_ low: UInt64, _ high: UInt64, count: Int) {
    (self.low, self.high, self.count) = (low, high, count)
  }

  /// The mask of the first `count` bytes of a word (`count` from 0 to 8).
  @inline(__always)
  private static func mask(_ count: Int) -> UInt64 {
    count >= 8 ? .max : (1 &<< UInt64(8 &* max(count, 0))) &- 1
  }

  /// Whether `bytes` hold this literal at `offset`: two masked loads, inlined; within 16 bytes
  /// of the end, byte by byte (``isAt(nearTheEndOf:_:)``), out of line. With both ways in one
  /// body the compiler kept it out of line, 34 instructions a call, four calls an entry of an
  /// XML suite's check.
  @inline(__always)
  func isAt(_ offset: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
    guard offset >= 0, bytes.count - offset >= 16, let base = bytes.baseAddress else {
      return isAt(nearTheEndOf: bytes, offset)
    }
    let first = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    let second = UInt64(
      littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
    return first & Self.mask(count) == low && second & Self.mask(count &- 8) == high
  }

  /// ``isAt(_:in:)`` for an `offset` less than 16 bytes before the end of `bytes` (or outside
  /// them), byte by byte.
  @inline(never)
  private func isAt(nearTheEndOf bytes: UnsafeRawBufferPointer, _ offset: Int) -> Bool {
    offset >= 0 && bytes.count - offset >= count
      && (0..<count).allSatisfy { bytes[offset + $0] == byte(at: $0) }
  }

  /// The literal's byte at `index`.
  private func byte(at index: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: (index < 8 ? low : high) >> (8 * (index % 8)))
  }

  /// `<key>`
  static var key: XMLLiteral { XMLLiteral(0x3E_7965_6B3C, 0, count: 5) }

  /// `</key>`
  static var keyEnd: XMLLiteral { XMLLiteral(0x3E79_656B_2F3C, 0, count: 6) }

  /// `<string>`
  static var string: XMLLiteral { XMLLiteral(0x3E67_6E69_7274_733C, 0, count: 8) }

  /// `</string>`
  static var stringEnd: XMLLiteral { XMLLiteral(0x676E_6972_7473_2F3C, 0x3E, count: 9) }

  /// `<integer>`
  static var integer: XMLLiteral { XMLLiteral(0x7265_6765_746E_693C, 0x3E, count: 9) }

  /// `</integer>`
  static var integerEnd: XMLLiteral { XMLLiteral(0x6567_6574_6E69_2F3C, 0x3E72, count: 10) }

  /// `<real>`
  static var real: XMLLiteral { XMLLiteral(0x3E6C_6165_723C, 0, count: 6) }

  /// `</real>`
  static var realEnd: XMLLiteral { XMLLiteral(0x3E_6C61_6572_2F3C, 0, count: 7) }

  /// `<date>`
  static var date: XMLLiteral { XMLLiteral(0x3E65_7461_643C, 0, count: 6) }

  /// `</date>`
  static var dateEnd: XMLLiteral { XMLLiteral(0x3E_6574_6164_2F3C, 0, count: 7) }

  /// `<data>`
  static var data: XMLLiteral { XMLLiteral(0x3E61_7461_643C, 0, count: 6) }

  /// `</data>`
  static var dataEnd: XMLLiteral { XMLLiteral(0x3E_6174_6164_2F3C, 0, count: 7) }

  /// `<true/>`
  static var `true`: XMLLiteral { XMLLiteral(0x3E_2F65_7572_743C, 0, count: 7) }

  /// `<false/>`
  static var `false`: XMLLiteral { XMLLiteral(0x3E2F_6573_6C61_663C, 0, count: 8) }
}

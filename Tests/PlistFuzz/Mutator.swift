import Foundation

/// SplitMix64: a small deterministic generator, so input `i` of seed `s` is the same in every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Mutates real property-list files the way fuzzers do: byte flips, interesting bytes, chunks
/// removed, duplicated or moved, truncation, and (for XML) splices of tags and entities.
enum Mutator {
  static let interestingBytes: [UInt8] = [
    0x00, 0x01, 0x0F, 0x10, 0x14, 0x1B, 0x33, 0x5F, 0x6F, 0x7F, 0x80, 0x8F, 0x9B, 0xA2, 0xAF, 0xC1,
    0xD1, 0xDF, 0xFF,
  ]
  static let xmlPieces = [
    "<array>", "</array>", "<dict>", "</dict>",
    "<integer>170141183460469231731687303715884105733</integer>",
    "<date>9999999-99-99T99:99:99Z</date>", "<data>!!!!</data>", "&#27;", "&#0;", "&amp;",
    "<real>nan</real>",
    "<key>k</key>", "<string>\u{1b}]0;x\u{07}</string>", "<!--", "<![CDATA[", "]]>", "<true/>",
    "<integer>-1</integer>",
  ]

  /// The generator of input `index` of `seed`.
  static func generator(_ index: Int, seed: UInt64) -> SplitMix64 {
    SplitMix64(seed: seed ^ (UInt64(index) &* 0x2545_F491_4F6C_DD1D))
  }

  /// Input `index` of `seed`: a mutated copy of one of `fixtures`.
  static func input(_ index: Int, seed: UInt64, fixtures: [Data]) -> Data {
    var random = generator(index, seed: seed)
    var bytes = [UInt8](fixtures[index % fixtures.count])
    let isXML = bytes.starts(with: Array("<?xml".utf8))
    for _ in 0..<Int.random(in: 1...8, using: &random) {
      mutate(&bytes, isXML: isXML, using: &random)
    }
    return Data(bytes)
  }

  /// Applies one mutation to `bytes` (XML pieces only when `isXML`).
  static func mutate(_ bytes: inout [UInt8], isXML: Bool, using random: inout SplitMix64) {
    guard !bytes.isEmpty else {
      bytes = [UInt8.random(in: 0...255, using: &random)]
      return
    }
    let position = Int.random(in: 0..<bytes.count, using: &random)
    switch Int.random(in: 0..<(isXML ? 8 : 7), using: &random) {
    case 0: bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &random)
    case 1: bytes[position] = interestingBytes.randomElement(using: &random)!
    case 2: bytes[position] = UInt8.random(in: 0...255, using: &random)
    case 3:
      let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
      bytes.removeSubrange(position..<end)
    case 4:
      let end = min(bytes.count, position + Int.random(in: 1...256, using: &random))
      let chunk = bytes[position..<end]
      bytes.insert(contentsOf: chunk, at: Int.random(in: 0...bytes.count, using: &random))
    case 5:
      // Binary: a byte of the trailer or the offset table, where structure lives.
      let tail = max(0, bytes.count - 64)
      let target = Int.random(in: tail..<bytes.count, using: &random)
      bytes[target] = interestingBytes.randomElement(using: &random)!
    case 6: bytes.removeLast(Int.random(in: 1...min(bytes.count, 32), using: &random))
    default:
      let piece = xmlPieces.randomElement(using: &random)!
      let copies = Int.random(in: 1...4, using: &random)
      bytes.insert(contentsOf: Array(String(repeating: piece, count: copies).utf8), at: position)
    }
  }
}

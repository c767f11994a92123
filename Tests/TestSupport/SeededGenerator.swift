/// A seeded random number generator (Knuth's MMIX linear congruential step, high bits mixed in),
/// so a test that draws random inputs draws the same ones in every run and a failure repeats.
public struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// A generator whose sequence is determined by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state ^ (state >> 33)
  }
}

extension SeededGenerator {
  /// `bytes` with one to three random mutations, each a byte replaced by a random one, a byte
  /// removed, or one of `insertions`' bytes inserted: hostile variations of a valid file.
  public mutating func mutated(_ bytes: [UInt8], inserting insertions: String) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<Int.random(in: 1...3, using: &self) {
      let index = Int.random(in: 0..<bytes.count, using: &self)
      switch Int.random(in: 0..<3, using: &self) {
      case 0: bytes[index] = UInt8.random(in: 0...255, using: &self)
      case 1: bytes.remove(at: index)
      default: bytes.insert(Array(insertions.utf8).randomElement(using: &self)!, at: index)
      }
    }
    return bytes
  }
}

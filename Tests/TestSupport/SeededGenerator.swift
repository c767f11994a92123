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

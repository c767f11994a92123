import Foundation

/// The version of one key's value in a cloud container: conflicts are decided per key by the
/// greater timestamp (last writer wins).
///
/// Timestamps come from a hybrid logical clock (Kulkarni et al., *Logical Physical Clocks*,
/// 2014): ``time`` is the writer's wall clock, raised to stay above every timestamp that device
/// has already seen, so a write made after seeing another one is always later, even when the two
/// devices' clocks disagree. ``counter`` orders writes within one microsecond, and ``device``
/// breaks the remaining ties, so every device picks the same winner.
public struct CloudTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Microseconds since 1970-01-01 00:00:00 UTC.
  public let time: Int64
  /// Orders writes that share ``time`` (0 for the first).
  public let counter: Int64
  /// The device that wrote the value.
  public let device: String

  /// Creates a timestamp.
  ///
  /// - Parameters:
  ///   - time: Microseconds since 1970.
  ///   - counter: The order within that microsecond.
  ///   - device: The writing device's identifier.
  public init(time: Int64, counter: Int64, device: String) {
    self.time = time
    self.counter = counter
    self.device = device
  }

  /// Orders by ``time``, then ``counter``, then ``device``.
  public static func < (lhs: CloudTimestamp, rhs: CloudTimestamp) -> Bool {
    (lhs.time, lhs.counter, lhs.device) < (rhs.time, rhs.counter, rhs.device)
  }

  /// `time.counter@device`, e.g. `1764420000000000.0@4711-1A2B3C4D`.
  public var description: String {
    "\(time).\(counter)@\(device)"
  }
}

/// One device's hybrid logical clock: hands out ever-increasing ``CloudTimestamp``s that are later
/// than every timestamp the device has observed.
struct HybridLogicalClock {
  let device: String
  private var time: Int64 = 0
  private var counter: Int64 = 0

  init(device: String) {
    self.device = device
  }

  /// The timestamp of a write made now.
  mutating func next() -> CloudTimestamp {
    let wall = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down))
    if wall > time {
      (time, counter) = (wall, 0)
    } else {
      counter += 1
    }
    return CloudTimestamp(time: time, counter: counter, device: device)
  }

  /// Moves the clock past `timestamp`, so the next write orders after it.
  mutating func observe(_ timestamp: CloudTimestamp) {
    if (timestamp.time, timestamp.counter) > (time, counter) {
      (time, counter) = (timestamp.time, timestamp.counter)
    }
  }
}

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
///
/// Timestamps come from other devices, so the clock bounds what it takes from them: a timestamp
/// more than ``maximumLead`` ahead of this device's wall clock is not admitted (the record
/// carrying it is refused, see ``CloudDevice``), and no arithmetic traps: at the largest time the
/// counter still advances, and at the largest time and counter the clock stays there.
struct HybridLogicalClock {
  /// How far ahead of the local wall clock an observed timestamp may be: 24 hours, in
  /// microseconds. Far more than any clock error between devices that sync (NTP keeps them within
  /// milliseconds; a device with a dead clock battery is typically years behind, not ahead), far
  /// less than what would stop the clock: a record stamped with the largest time would otherwise
  /// make every later write of every device carry that time.
  static let maximumLead: Int64 = 86_400 * 1_000_000

  let device: String
  private var time: Int64 = 0
  private var counter: Int64 = 0
  /// Microseconds since 1970 now (a parameter, for tests of the edges).
  private let wallClock: @Sendable () -> Int64

  init(device: String, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.now) {
    self.device = device
    self.wallClock = wallClock
  }

  /// Microseconds since 1970 on this machine's clock.
  @Sendable static func now() -> Int64 {
    Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down))
  }

  /// The timestamp of a write made now.
  mutating func next() -> CloudTimestamp {
    let wall = wallClock()
    if wall > time {
      (time, counter) = (wall, 0)
    } else if counter < .max {
      counter += 1
    } else if time < .max {
      (time, counter) = (time + 1, 0)
    }
    return CloudTimestamp(time: time, counter: counter, device: device)
  }

  /// Whether `timestamp` is at most ``maximumLead`` ahead of the wall clock.
  func admits(_ timestamp: CloudTimestamp) -> Bool {
    Self.admits(timestamp, wall: wallClock())
  }

  /// Whether `timestamp` is at most ``maximumLead`` ahead of `wall` (microseconds since 1970).
  static func admits(_ timestamp: CloudTimestamp, wall: Int64) -> Bool {
    let (limit, overflow) = wall.addingReportingOverflow(maximumLead)
    return overflow || timestamp.time <= limit
  }

  /// Moves the clock past `timestamp`, so the next write orders after it; a timestamp the clock
  /// does not admit (``admits(_:)``) leaves it as it is.
  mutating func observe(_ timestamp: CloudTimestamp) {
    guard admits(timestamp) else { return }
    if (timestamp.time, timestamp.counter) > (time, counter) {
      (time, counter) = (timestamp.time, timestamp.counter)
    }
  }
}

import Foundation

/// Counts the devices that have seen one change, from their observers' threads, and hands the
/// moment the last one saw it to the measuring thread.
final class FanOutLatch: @unchecked Sendable {
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var expected = ""
  private var remaining = 0
  private var lastSeen: UInt64?

  /// Starts waiting for `devices` devices to see `value`.
  func expect(_ value: String, devices: Int) {
    condition.withLock {
      expected = value
      remaining = devices
      lastSeen = nil
    }
  }

  /// Called by a device's observer with the value it now holds; a device holding the expected
  /// value is counted (an observer fires once per change of the value, so once per device).
  func saw(_ value: String?) {
    let now = monotonicNanoseconds()
    condition.withLock {
      guard value == expected, remaining > 0 else { return }
      remaining -= 1
      if remaining == 0 {
        lastSeen = now
        condition.signal()
      }
    }
  }

  /// The moment the last device saw the value, or nil after `seconds` (and how many had not).
  func wait(seconds: Double) -> (lastSeen: UInt64?, missing: Int) {
    let deadline = Date(timeIntervalSinceNow: seconds)
    return condition.withLock {
      while lastSeen == nil, condition.wait(until: deadline) {}
      return (lastSeen, remaining)
    }
  }
}

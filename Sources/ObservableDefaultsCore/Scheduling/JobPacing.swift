import Dispatch

/// Spaces the runs of a background job (a flush, a notification post) at least ``interval``
/// apart, so a burst of requests costs one hand-off per interval instead of one per run.
///
/// The first request after a quiet interval runs at once: a lone change is not delayed. Waking
/// another thread for each run cost a third of a write in the burst benchmark's profile, and a
/// job run back to back with the writes slowed them by as much again. Not thread-safe: the owner
/// guards it with the lock that guards its "scheduled" flag.
struct JobPacing {
  /// The shortest time between the starts of two runs, in nanoseconds.
  let interval: UInt64
  private var lastStart: UInt64?

  /// Paces runs `interval` nanoseconds apart.
  init(interval: UInt64) {
    self.interval = interval
  }

  /// How long a run requested now waits, in nanoseconds (0: it runs at once).
  func delay(at now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> UInt64 {
    guard let lastStart, lastStart + interval > now else { return 0 }
    return lastStart + interval - now
  }

  /// Records that a run starts now.
  mutating func noteStart(at now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
    lastStart = now
  }
}

extension DispatchQueue {
  /// Runs `work` on this queue after `delay` nanoseconds, or as soon as possible when it is 0.
  func async(afterNanoseconds delay: UInt64, execute work: @escaping @Sendable () -> Void) {
    if delay == 0 {
      async(execute: work)
    } else {
      asyncAfter(deadline: .now() + .nanoseconds(Int(delay)), execute: work)
    }
  }
}

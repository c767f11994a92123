#if canImport(Glibc)
  import Glibc
#endif

/// The system's clocks, and sleeping.
enum SystemClock {
  /// The wall clock now (`clock_gettime(CLOCK_REALTIME)`), as file timestamps are kept.
  static func now() -> timespec {
    var moment = timespec()
    clock_gettime(CLOCK_REALTIME, &moment)
    return moment
  }

  /// Blocks the calling thread for `microseconds` (`usleep(3)`).
  static func sleep(microseconds: UInt32) {
    usleep(microseconds)
  }
}

public import Synchronization

/// A mutual-exclusion lock around the cached values of one settings object.
///
/// Cached values are written by the thread that delivers a store change and read by any thread,
/// so every access goes through this lock. It is the standard library's `Mutex` (a futex on
/// Linux), whose uncontended path is inlined into each getter; a `pthread_mutex_t` cost two
/// calls per read.
public final class _DefaultsLock: Sendable {
  @usableFromInline let mutex = Mutex<Void>(())

  /// Creates an unlocked lock.
  public init() {}

  /// Runs `body` while holding the lock. `body` must not take this lock again.
  @inlinable
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try mutex.withLock { _ in try body() }
  }
}

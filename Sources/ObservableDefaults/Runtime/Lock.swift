import Foundation

/// A mutual-exclusion lock around the cached values of one settings object.
///
/// Cached values are written by the thread that delivers a store change and read by any thread,
/// so every access goes through this lock. Uses `pthread_mutex_t` at a stable address.
public final class _DefaultsLock: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Creates an unlocked lock.
  public init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock. `body` must not take this lock again.
  @inlinable
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

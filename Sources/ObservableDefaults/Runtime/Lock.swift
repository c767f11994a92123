public import Synchronization

/// A mutual-exclusion lock around the cached values of one settings object.
///
/// Cached values are written by the thread that delivers a store change and read by any thread,
/// so every access goes through this lock. It is the standard library's `Mutex` (a futex on
/// Linux), whose uncontended path is inlined into each getter; a `pthread_mutex_t` cost two
/// calls per read.
///
/// ThreadSanitizer does not see a contended `Mutex` hand over on Linux: the kernel passes a
/// priority-inheritance futex from the releasing thread to the waiting one, with no atomic
/// operation the sanitizer could pair, so it reported races on accesses made inside this lock
/// (about 40 in the Runtime tests; Benchmarks/README.md, "The property read and write", shows
/// one with a 15-line program). So every hold also loads ``handOver`` with acquiring ordering
/// after taking the mutex and stores it with releasing ordering before giving it back: the
/// sanitizer pairs the two (a release and an acquire of one address), which orders each holder
/// after the one before. Without the sanitizer they are two plain moves on x86-64 and arm64
/// (`mov`, `ldar`/`stlr`), and no ordering is weakened or added that the mutex did not give.
public final class _DefaultsLock: Sendable {
  @usableFromInline let mutex = Mutex<Void>(())
  /// Only its accesses matter (see the type's comment); its value is always 0.
  @usableFromInline let handOver = Atomic<UInt8>(0)

  /// Creates an unlocked lock.
  public init() {}

  /// Runs `body` while holding the lock. `body` must not take this lock again.
  @inlinable
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try mutex.withLock { _ in
      _ = handOver.load(ordering: .acquiring)
      defer { handOver.store(0, ordering: .releasing) }
      return try body()
    }
  }
}

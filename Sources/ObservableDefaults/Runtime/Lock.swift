import Foundation
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

/// Lets one thread at a time write the persisted properties of one settings object, from the
/// store's write to the cache's update; the thread that holds it may write again (a store
/// observer or an Observation observer that writes the object while it is written).
///
/// The store's write and the cache's update cannot share the object's ``_DefaultsLock``: the
/// store tells its observers and Observation tells the property's observers in between, and they
/// read the object. Without this lock, two threads writing one property could update the store
/// in one order and the cache in the other, and the object kept a value the store no longer
/// held. Writes of a thread that holds the lock are counted (``writes``) so that an outer write
/// can tell that a nested one came after its store write.
public final class _DefaultsWriteLock: @unchecked Sendable {
  // Sendable: `writes` is read and changed only by the thread that holds `mutex`.
  @usableFromInline let mutex = Mutex<Void>(())
  /// The thread that holds the lock (its `pthread_self()`), else 0.
  @usableFromInline let owner = Atomic<UInt>(0)
  /// How many store writes were made under the lock: read and changed only by its holder, so
  /// without the runtime's exclusivity bookkeeping (a twentieth of a write in its profile).
  @usableFromInline @exclusivity(unchecked) var writes: UInt64 = 0

  /// Creates an unlocked lock.
  public init() {}

  /// Runs `body` while holding the lock; at once when this thread holds it already.
  @inlinable
  public func withLock<Result>(_ body: () -> Result) -> Result {
    let thread = UInt(pthread_self())
    if owner.load(ordering: .relaxed) == thread { return body() }
    return mutex.withLock { _ in
      owner.store(thread, ordering: .relaxed)
      defer { owner.store(0, ordering: .relaxed) }
      return body()
    }
  }
}

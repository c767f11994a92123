public import Synchronization

/// The standard library's `Mutex`, whose hand-over from one holder to the next
/// ThreadSanitizer sees.
///
/// On Linux a contended `Mutex` is a priority-inheritance futex: the kernel passes it from the
/// releasing thread to a waiting one, with no atomic operation in either thread the sanitizer
/// could pair, so it reports races on accesses made inside the lock. Each hold therefore loads
/// an atomic with acquiring ordering after taking the mutex and stores it with releasing
/// ordering before giving it back, which the sanitizer pairs (a release and an acquire of one
/// address). Without the sanitizer they are two plain moves on x86-64 and arm64, and they add
/// no ordering the mutex did not give. `_DefaultsLock` of the `ObservableDefaults` module does
/// the same inline in every property accessor. Inlinable: the codec cache's lookups are inlined
/// into the modules that declare settings.
@usableFromInline
package struct AnnotatedMutex<Value: ~Copyable>: ~Copyable, Sendable {
  @usableFromInline let mutex: Mutex<Value>
  /// Only its accesses matter; its value is always 0.
  @usableFromInline let handOver = Atomic<UInt8>(0)

  /// Creates an unlocked mutex holding `initialValue`.
  @inlinable
  package init(_ initialValue: consuming sending Value) {
    mutex = Mutex(initialValue)
  }

  /// Runs `body` on the value while holding the lock; `body` must not take this lock again.
  @inlinable
  package borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      _ = handOver.load(ordering: .acquiring)
      defer { handOver.store(0, ordering: .releasing) }
      return try body(&value)
    }
  }
}

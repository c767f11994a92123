import Foundation

/// How store changes reach `@MainActor` settings objects (and those declared with
/// `defaultIsolationIsMainActor: true`).
///
/// Changes made on the main thread are applied at once. Changes that arrive on another thread
/// (other processes, other devices) are handed to ``schedule``, which must run the work on the
/// main thread; the default is `DispatchQueue.main.async`. A program whose main thread runs a loop
/// of its own instead of Dispatch's (a terminal program blocked in `poll()`, for example) sets a
/// scheduler that queues the work for that loop and wakes it.
public enum MainActorDelivery {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var scheduler:
    @Sendable (@escaping @Sendable () -> Void) -> Void = {
      DispatchQueue.main.async(execute: $0)
    }

  /// Runs `work` on the main thread, soon; thread-safe.
  public static var schedule: @Sendable (@escaping @Sendable () -> Void) -> Void {
    get { lock.withLock { scheduler } }
    set { lock.withLock { scheduler = newValue } }
  }
}

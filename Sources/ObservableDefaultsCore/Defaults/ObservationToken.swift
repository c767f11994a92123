import Foundation
import Synchronization

/// The token of an observation: of a suite (``PropertyListDefaults/observe(_:)``), of the cloud
/// store or a ``CloudBackend`` (``CloudBackend/subscribe(from:_:)``), of a file or the preferences
/// folder (``PropertyListFile/watch(onChange:)``, ``PreferencesDirectory/watchSuites(onChange:)``).
///
/// Keep it for as long as the handler should be called: the observation ends on ``cancel()`` or
/// when the token is released.
public final class ObservationToken: Sendable {
  /// Identifies the observer inside its storage (unique in the process).
  let id: UInt64
  private let onCancel: AnnotatedMutex<(@Sendable () -> Void)?>

  package init(id: UInt64, onCancel: @escaping @Sendable () -> Void) {
    self.id = id
    self.onCancel = AnnotatedMutex(onCancel)
  }

  /// Creates an observation for a store of another kind; `onCancel` runs once, on ``cancel()``
  /// or deinit.
  public convenience init(onCancel: @escaping @Sendable () -> Void) {
    self.init(id: ObserverIDs.next(), onCancel: onCancel)
  }

  /// Stops the observation: the handler is not called for changes made after this returns
  /// (a call already running on another thread may finish). Calling it again does nothing.
  public func cancel() {
    let action = onCancel.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }

  deinit {
    cancel()
  }
}

/// The former name of ``ObservationToken``, from when only suites were observed.
@available(*, deprecated, renamed: "ObservationToken")
public typealias DefaultsObservation = ObservationToken

/// Process-unique observer ids.
///
/// A class holding an `Atomic` rather than a `static let` non-copyable global: on this toolchain
/// a non-copyable global was seen locked through two different mutexes at once
/// (ThreadSanitizer), which corrupted the ids and crashed `SuiteStorage.addObserver`.
package final class ObserverIDs: Sendable {
  private static let shared = ObserverIDs()
  private let last = Atomic<UInt64>(0)

  package static func next() -> UInt64 {
    shared.last.wrappingAdd(1, ordering: .relaxed).newValue
  }
}

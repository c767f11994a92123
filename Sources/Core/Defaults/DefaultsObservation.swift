import Synchronization

/// A registration made by ``PropertyListDefaults/observe(_:)``; ends on ``cancel()`` or deinit.
public final class DefaultsObservation: Sendable {
  /// Identifies the observer inside its storage (unique in the process).
  let id: UInt64
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  init(id: UInt64, onCancel: @escaping @Sendable () -> Void) {
    self.id = id
    self.onCancel = Mutex(onCancel)
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

/// Process-unique observer ids.
enum ObserverIDs {
  private static let counter = Mutex<UInt64>(0)

  static func next() -> UInt64 {
    counter.withLock { value in
      value += 1
      return value
    }
  }
}

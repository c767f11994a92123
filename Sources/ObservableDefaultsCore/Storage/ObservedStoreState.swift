import Foundation

/// The in-process state of a store (a suite's ``SuiteStorage``, a cloud device's
/// ``CloudDevice``): observers kept under ``lock``, and disk or backend work run on ``queue``.
protocol ObservedStoreState: AnyObject, Sendable {
  associatedtype Change: Sendable
  /// Guards ``observers`` and the store's values.
  var lock: NSLock { get }
  /// Who is told about changes; read and changed under ``lock``.
  var observers: ObserverList<Change> { get set }
  /// The serial queue of the store's disk or backend work, tagged with ``queueKey``.
  var queue: DispatchQueue { get }
  /// Marks ``queue`` as this store's (the value is the store's `ObjectIdentifier`).
  static var queueKey: DispatchSpecificKey<ObjectIdentifier> { get }
}

extension ObservedStoreState {
  /// Adds an observer; it stays until the returned observation is cancelled or released.
  func addObserver(_ handler: @escaping ObserverList<Change>.Handler) -> ObservationToken {
    addObserver(handler, to: \.observers)
  }

  /// Adds an observer that makes a change's report only when it reads it (see
  /// ``ObserverList/LazyHandler``); it stays until the returned observation is cancelled or
  /// released.
  func addLazyObserver(_ handler: @escaping ObserverList<Change>.LazyHandler) -> ObservationToken {
    let id = ObserverIDs.next()
    lock.withLock { observers.addLazy(id: id, handler) }
    return removal(of: id, from: \.observers)
  }

  /// Adds an observer to `list` (one of the store's lists, guarded by ``lock``); it stays until
  /// the returned observation is cancelled or released.
  func addObserver<Told: Sendable>(
    _ handler: @escaping ObserverList<Told>.Handler,
    to list: any ReferenceWritableKeyPath<Self, ObserverList<Told>> & Sendable
  ) -> ObservationToken {
    let id = ObserverIDs.next()
    lock.withLock { self[keyPath: list].add(id: id, handler) }
    return removal(of: id, from: list)
  }

  /// The observation that removes the observer `id` from `list`.
  private func removal<Told: Sendable>(
    of id: UInt64, from list: any ReferenceWritableKeyPath<Self, ObserverList<Told>> & Sendable
  ) -> ObservationToken {
    ObservationToken(id: id) { [weak self] in
      guard let self else { return }
      self.lock.withLock { self[keyPath: list].remove(id: id) }
    }
  }

  /// How many observers the store has now (every one is told of a change from elsewhere).
  var observerCount: Int {
    lock.withLock { observers.count }
  }

  /// Tags ``queue`` so that ``onQueue(_:)`` can tell when it already runs there.
  func tagQueue() {
    queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
  }

  /// Runs `body` on ``queue`` and waits, or runs it at once when already on it.
  func onQueue<T>(_ body: () -> T) -> T {
    if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) { return body() }
    return queue.sync(execute: body)
  }
}

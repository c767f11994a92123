import Foundation

/// Where ``CloudSubscribers`` reads a container from: a backend.
protocol CloudContainerSource: AnyObject, Sendable {
  /// The current account's contents.
  func readContents() throws -> CloudContainerContents
}

/// The subscriptions of one backend instance (one device), each with its own resume point.
///
/// A change of the container (``contentsDidChange()``) makes one coalesced read on ``queue`` that
/// gives each subscriber the records saved after its point. Account switches run on the same
/// queue, so a subscriber never gets records of the old account after the switch. Shared by
/// ``InMemoryCloudBackend`` and ``EmbeddedCloudBackend``.
final class CloudSubscribers: @unchecked Sendable {
  typealias Handler = @Sendable (CloudBackendEvent) -> Void

  private struct Subscriber {
    var cursor: CloudCursor?
    let handler: Handler
  }

  /// Serial queue of reads and deliveries.
  let queue: DispatchQueue
  private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
  /// The backend; weak because the backend owns this object.
  weak var source: (any CloudContainerSource)?
  private let lock = NSLock()
  // Guarded by `lock`.
  private var subscribers: [UInt64: Subscriber] = [:]
  private var pollScheduled = false

  init(label: String) {
    queue = DispatchQueue(label: "ObservableDefaultsCore.cloud." + label)
    queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
  }

  /// Adds a subscriber and delivers at once what was saved after `cursor`.
  func add(from cursor: CloudCursor?, _ handler: @escaping Handler) -> ObservationToken {
    let id = ObserverIDs.next()
    lock.withLock { subscribers[id] = Subscriber(cursor: cursor, handler: handler) }
    contentsDidChange()
    return ObservationToken(id: id) { [weak self] in
      guard let self else { return }
      self.lock.withLock { self.subscribers[id] = nil }
    }
  }

  /// Asks for a read on ``queue``; several requests before it runs make one read.
  func contentsDidChange() {
    let mustSchedule = lock.withLock {
      defer { pollScheduled = true }
      return !pollScheduled
    }
    if mustSchedule { queue.async { self.poll() } }
  }

  /// Runs `switching` on ``queue`` (it switches the source's account and returns the new
  /// account and its contents), then gives every subscriber the new account's records. Called on
  /// ``queue`` itself (from a subscriber's handler), it runs at once.
  ///
  /// - Throws: What `switching` throws; nothing is delivered then.
  func switchAccount(_ switching: () throws -> (account: String, contents: CloudContainerContents))
    throws
  {
    try onQueue {
      let (account, contents) = try switching()
      let batch = contents.batch(after: nil)
      for (id, subscriber) in lock.withLock({ subscribers }) {
        lock.withLock { subscribers[id]?.cursor = batch.cursor }
        subscriber.handler(.accountChanged(account: account, batch))
      }
    }
  }

  /// Runs `body` on ``queue`` and waits, or at once when already on it.
  private func onQueue<T>(_ body: () throws -> T) rethrows -> T {
    if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) { return try body() }
    return try queue.sync(execute: body)
  }

  /// Reads the container once and delivers to each subscriber the records after its cursor. An
  /// unreadable container delivers nothing; the next change tries again.
  private func poll() {
    lock.withLock { pollScheduled = false }
    guard let contents = try? source?.readContents() else { return }
    for (id, subscriber) in lock.withLock({ subscribers }) {
      let batch = contents.batch(after: subscriber.cursor)
      lock.withLock { subscribers[id]?.cursor = batch.cursor }
      if !batch.records.isEmpty { subscriber.handler(.changed(batch)) }
    }
  }
}

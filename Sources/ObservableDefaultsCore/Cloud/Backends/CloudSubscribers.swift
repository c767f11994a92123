import Foundation

/// Where ``CloudSubscribers`` reads a container from: a backend.
protocol CloudContainerSource: AnyObject, Sendable {
  /// The current account's contents.
  func readContents() throws -> CloudContainerContents
}

/// The subscriptions of one backend instance (one device), each with its own resume point.
///
/// A change of the container (``contentsDidChange()``) makes one coalesced read on its queue that
/// gives each subscriber the records saved after its point. Account switches run on the same
/// queue, so a subscriber never gets records of the old account after the switch. Shared by
/// ``InMemoryCloudBackend`` and ``EmbeddedCloudBackend``.
final class CloudSubscribers: Sendable {
  typealias Handler = @Sendable (CloudBackendEvent) -> Void

  private struct Subscriber {
    var cursor: CloudCursor?
    let handler: Handler
  }

  /// A weak reference to the backend, which owns this object.
  private struct Source {
    weak var backend: (any CloudContainerSource)?
  }

  private struct State {
    var source = Source()
    var subscribers: [UInt64: Subscriber] = [:]
    var pollScheduled = false
  }

  /// Serial queue of reads and deliveries.
  private let queue: CloudDeviceQueue
  private let state = AnnotatedMutex(State())

  init(label: String) {
    queue = CloudDeviceQueue(label: label)
  }

  /// The backend the reads are made from (set once it exists).
  var source: (any CloudContainerSource)? {
    get { state.withLock { $0.source.backend } }
    set { state.withLock { $0.source.backend = newValue } }
  }

  /// Adds a subscriber and delivers at once what was saved after `cursor`.
  func add(from cursor: CloudCursor?, _ handler: @escaping Handler) -> ObservationToken {
    let id = ObserverIDs.next()
    state.withLock { $0.subscribers[id] = Subscriber(cursor: cursor, handler: handler) }
    contentsDidChange()
    return ObservationToken(id: id) { [weak self] in
      self?.state.withLock { $0.subscribers[id] = nil }
    }
  }

  /// Asks for a read on the queue; several requests before it runs make one read.
  func contentsDidChange() {
    let mustSchedule = state.withLock { state in
      defer { state.pollScheduled = true }
      return !state.pollScheduled
    }
    if mustSchedule { queue.async { self.poll() } }
  }

  /// Runs `switching` on the queue (it switches the source's account and returns the new
  /// account and its contents), then gives every subscriber the new account's records. Called on
  /// the queue itself (from a subscriber's handler), it runs at once.
  ///
  /// - Throws: What `switching` throws; nothing is delivered then.
  func switchAccount(_ switching: () throws -> (account: String, contents: CloudContainerContents))
    throws
  {
    try queue.sync {
      let (account, contents) = try switching()
      let batch = contents.batch(after: nil)
      for (id, subscriber) in state.withLock({ $0.subscribers }) {
        state.withLock { $0.subscribers[id]?.cursor = batch.cursor }
        subscriber.handler(.accountChanged(account: account, batch))
      }
    }
  }

  /// Reads the container once and delivers to each subscriber the records after its cursor. An
  /// unreadable container delivers nothing; the next change tries again.
  private func poll() {
    let source = state.withLock { state in
      state.pollScheduled = false
      return state.source.backend
    }
    guard let contents = try? source?.readContents() else { return }
    for (id, subscriber) in state.withLock({ $0.subscribers }) {
      let batch = contents.batch(after: subscriber.cursor)
      state.withLock { $0.subscribers[id]?.cursor = batch.cursor }
      if !batch.records.isEmpty { subscriber.handler(.changed(batch)) }
    }
  }
}

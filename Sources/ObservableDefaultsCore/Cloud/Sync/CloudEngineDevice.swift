import Foundation

/// A watch a sync engine keeps for one subscription.
package protocol CloudEngineWatch: AnyObject, Sendable {
  /// Stops the watch: it delivers nothing more.
  func cancel()
}

/// What a sync engine's device (an etcd or NATS backend instance) keeps under its lock besides
/// its client and key layout: the account it is signed into and that account's journal, what
/// its last exchange proved, and its subscriptions, each with its watch and resume point.
///
/// A watch is made for one generation of the subscriptions; an account switch or a restart of
/// the watches starts the next, so that a delivery of an older watch still on its way is
/// dropped (``deliver(_:upTo:to:generation:noting:)``).
package struct CloudEngineDevice<
  Watch: CloudEngineWatch, Cursor: CloudEngineCursor, Failure: Error & Sendable
>: Sendable {
  /// A subscriber of the backend.
  package typealias Handler = @Sendable (CloudBackendEvent) -> Void
  /// How an exchange ended.
  package typealias Outcome = CloudExchangeState<Failure>.Outcome
  /// Makes the watch of subscription `id`, for deliveries of `generation`, starting after
  /// `cursor` (nil: from the start); nil while the device cannot watch (no connection).
  package typealias MakeWatch = (_ id: UInt64, _ generation: Int, _ cursor: Cursor?) -> Watch?

  private struct Subscription: Sendable {
    let handler: Handler
    var watch: Watch?
    /// Where the watch resumes when it is made again: its last delivery's cursor.
    var cursor: Cursor?
  }

  /// The account the device is signed into.
  package private(set) var account: String
  /// The account's local copy: records, pending writes, resume point.
  package var journal: CloudDeviceJournal
  /// What the last exchange proved.
  package var exchange = CloudExchangeState<Failure>()
  private var subscriptions: [UInt64: Subscription] = [:]
  private var generation = 0

  /// A device signed into `account`, whose journal is `journal`.
  package init(account: String, journal: CloudDeviceJournal) {
    self.account = account
    self.journal = journal
  }

  /// The device's status as `backend` reached at `endpoint`, its client's socket being `socket`:
  /// the pending writes it reports are the journal's that the store does not count itself.
  package func status(
    backend: String, endpoint: String?, socket: CloudSyncStatus.Connection = .connected
  ) -> CloudSyncStatus {
    CloudSyncStatus(
      backend: backend, endpoint: endpoint, account: account,
      connection: exchange.connection(socket: socket),
      pendingCount: journal.unhandedPendingCount, lastSync: exchange.lastSync,
      lastError: exchange.lastError, reachedQuorum: exchange.reachedQuorum)
  }

  /// Writes the journal's file; a failure is noted for the status (the device keeps working
  /// from memory).
  package mutating func persistJournal() {
    if let failure = journal.persistReportingFailure() { exchange.note(failure) }
  }

  // MARK: Subscriptions

  /// Adds a subscriber, its watch made by `makeWatch` after `cursor`.
  ///
  /// - Returns: The subscription's id, for ``unsubscribe(_:)``.
  package mutating func subscribe(
    from cursor: Cursor?, _ handler: @escaping Handler, makeWatch: MakeWatch
  ) -> UInt64 {
    let id = ObserverIDs.next()
    let watch = makeWatch(id, generation, cursor)
    subscriptions[id] = Subscription(handler: handler, watch: watch, cursor: cursor)
    return id
  }

  /// Removes a subscriber.
  ///
  /// - Returns: Its watch, to be cancelled outside the lock.
  package mutating func unsubscribe(_ id: UInt64) -> Watch? {
    subscriptions.removeValue(forKey: id)?.watch
  }

  /// The subscriptions' watches.
  package var watches: [Watch] {
    subscriptions.values.compactMap(\.watch)
  }

  /// Whether `generation` is the current one (its watches' deliveries count).
  package func isCurrent(_ generation: Int) -> Bool {
    generation == self.generation
  }

  /// Cancels every watch (when the device ends).
  package func cancelWatches() {
    for subscription in subscriptions.values { subscription.watch?.cancel() }
  }

  /// Ends every watch and makes a new one for each subscription, starting after the cursor
  /// `start` gives for the old watch's last delivery; the old watches' deliveries still on their
  /// way are dropped.
  package mutating func restartWatches(
    after start: (_ lastDelivery: Cursor?) -> Cursor?, makeWatch: MakeWatch
  ) {
    generation += 1
    for (id, subscription) in subscriptions {
      subscription.watch?.cancel()
      let cursor = start(subscription.cursor)
      subscriptions[id]?.watch = makeWatch(id, generation, cursor)
      subscriptions[id]?.cursor = cursor
    }
  }

  /// Takes a watch's delivery of `records` up to `cursor` into the journal (noting in the
  /// exchange state what the delivery proves, with `noting`) and writes the journal.
  ///
  /// - Returns: The subscriber to hand the records to; nil (and nothing taken) for a delivery of
  ///   an older generation's watch or a cancelled subscription.
  package mutating func deliver(
    _ records: [PropertyListKey: CloudRecord], upTo cursor: Cursor, to id: UInt64,
    generation: Int, noting: (inout CloudExchangeState<Failure>) -> Void
  ) -> Handler? {
    guard generation == self.generation, let subscription = subscriptions[id] else { return nil }
    subscriptions[id]?.cursor = cursor
    noting(&exchange)
    journal.absorb(records, upTo: cursor)
    persistJournal()
    return subscription.handler
  }

  // MARK: Accounts

  /// Signs the device into `account`, whose journal is `journal` (the old journal's file is
  /// released), and restarts every watch after `cursor`.
  ///
  /// - Returns: Every subscriber, to be handed `CloudBackendEvent.accountChanged` outside the
  ///   lock.
  package mutating func switchAccount(
    to account: String, journal: CloudDeviceJournal, after cursor: Cursor?, makeWatch: MakeWatch
  ) -> [Handler] {
    self.journal.releaseFile()
    self.journal = journal
    self.account = account
    persistJournal()
    restartWatches(after: { _ in cursor }, makeWatch: makeWatch)
    return subscriptions.values.map(\.handler)
  }
}

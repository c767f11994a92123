import Foundation
public import ObservableDefaultsCore

/// A cloud backend on an etcd cluster: devices on different machines sync through it.
///
/// Each backend instance is one device. Records live under
/// `/<root>/<container>/<account>/<key>` (see ``EtcdConfiguration``), one etcd key per store key,
/// its value a header ordered like the record's timestamp followed by a binary property list.
///
/// - **Save**: one transaction per save keeps, per key, the record with the later timestamp,
///   decided by etcd itself; all keys of a save land in one revision (within etcd's request
///   limits), and a save of nothing newer writes nothing.
/// - **Subscribe**: a resilient watch per subscription (failover to the next member, resume from
///   the last revision + 1, no event lost or delivered twice, a single catch-up read after a
///   compaction), with progress notifications and `hasleader`.
/// - **Offline first**: a save lands in the device's journal (see
///   ``EtcdConfiguration/stateDirectory``) before anything is sent. When no member answers within
///   ``EtcdConfiguration/requestTimeout``, the save returns without error, the writes stay pending
///   (``syncStatus`` says `offline, N pending`), and a background retry pushes them when the
///   cluster answers again — also after a restart, from the journal file. A load without a cluster
///   answers from the journal.
/// - **Security**: with ``EtcdConfiguration/credentials`` the device authenticates as that etcd
///   user (renewing its token when refused); `https` endpoints use ``EtcdConfiguration/tls``. A
///   refused permission throws ``EtcdError`` of kind `.permissionDenied`.
///
/// ```swift
/// let backend = try EtcdCloudBackend(configuration: EtcdConfiguration(
///   endpoints: ["http://10.0.0.2:2379", "http://10.0.0.3:2379"], container: "com.example.app", account: "alice"))
/// let store = NSUbiquitousKeyValueStore(backend: backend)
/// ```
public final class EtcdCloudBackend: CloudBackend, @unchecked Sendable {
  /// What this device connects to (its account is the one given at creation; see ``account``).
  public let configuration: EtcdConfiguration
  let client: EtcdClient
  /// Serial queue of deliveries and account switches.
  private let queue = DispatchQueue(label: "ObservableDefaultsCore.cloud.etcd")
  private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
  /// Serializes pushes of pending writes.
  private let pushLock = NSLock()

  private struct Subscription {
    let handler: @Sendable (CloudBackendEvent) -> Void
    var watch: EtcdWatch
  }

  let lock = NSLock()
  // Guarded by `lock`.
  private var currentAccount: String
  private var layout: EtcdKeyLayout
  private(set) var journal: CloudDeviceJournal
  /// The timestamps of the records of the `save` calls that have not returned: the store that
  /// called counts those as its own pending writes, so ``syncStatus`` does not count them again.
  private var accepting: [PropertyListKey: CloudTimestamp] = [:]
  private var subscriptions: [UInt64: Subscription] = [:]
  /// Changes at each account switch; deliveries of an older generation are dropped.
  private var generation = 0
  private var connection = CloudSyncStatus.Connection.connecting
  /// Whether the last exchange was linearizable (a range or a transaction, which etcd answers
  /// only with its quorum) or a watch event (sent only for a committed revision).
  private var reachedQuorum = false
  /// How many failures were noted: a success counts only when none was noted while its
  /// exchange ran (a reply received before a member died must not undo the failure seen after).
  private var failuresNoted = 0
  private var lastSync: Date?
  private var lastError: String?
  private var retryScheduled = false
  private var released = false
  /// Checks that a member answers every ``EtcdConfiguration/heartbeatInterval``.
  private var heartbeat: (any DispatchSourceTimer)?

  /// Connects a new device.
  ///
  /// - Parameter configuration: Endpoints, key root, container, account, credentials, TLS files,
  ///   time limits and the journal folder.
  /// - Throws: ``EtcdConfigurationError`` for a configuration without endpoints;
  ///   `PropertyListError` when the journal file exists but cannot be read.
  public init(configuration: EtcdConfiguration) throws {
    guard !configuration.endpoints.isEmpty else {
      throw EtcdConfigurationError(
        "the etcd backend needs at least one endpoint (\(EtcdConfiguration.endpointsVariable))")
    }
    self.configuration = configuration
    client = EtcdClient(
      endpoints: configuration.endpoints, credentials: configuration.credentials,
      tls: configuration.tls, proxy: configuration.proxy,
      requestTimeout: configuration.requestTimeout, connectTimeout: configuration.connectTimeout)
    currentAccount = configuration.account
    layout = EtcdKeyLayout(
      root: configuration.root, container: configuration.container, account: configuration.account)
    journal = try CloudDeviceJournal(
      directory: configuration.stateDirectory, container: configuration.container,
      account: configuration.account)
    queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    startHeartbeat()
  }

  deinit {
    heartbeat?.cancel()
    for subscription in subscriptions.values { subscription.watch.cancel() }
    journal.releaseFile()
  }

  /// The account this device is signed into.
  public var account: String {
    lock.withLock { currentAccount }
  }

  /// `etcd`, the member in use, connected / connecting / offline, the writes not yet acknowledged,
  /// the last successful exchange and the last error.
  public var syncStatus: CloudSyncStatus {
    let endpoint = client.currentEndpoint
    return lock.withLock {
      CloudSyncStatus(
        backend: "etcd", endpoint: endpoint, account: currentAccount, connection: connection,
        pendingCount: journal.pending.count(where: { accepting[$0.key] != $0.value.timestamp }),
        lastSync: lastSync, lastError: lastError, reachedQuorum: reachedQuorum)
    }
  }

  // MARK: CloudBackend

  /// Reads every record of the account, pushes the journal's pending writes, and returns the
  /// records with the pending writes over them. Without a cluster, returns the journal's copy.
  ///
  /// - Throws: ``EtcdError`` when the cluster refuses (permission, authentication); never for an
  ///   unreachable cluster.
  public func load() throws -> CloudRecordBatch {
    let (layout, started) = lock.withLock { (self.layout, failuresNoted) }
    do {
      let response = try client.range(key: layout.prefixKey, rangeEnd: layout.rangeEnd)
      let kvs = response.kvs ?? []
      let cursor = EtcdCursor(
        clusterID: response.header?.clusterId ?? "", revision: EtcdRecordReader.highestRevision(kvs)
      )
      let read = EtcdRecordReader.records(kvs, layout: layout)
      let hasPending = lock.withLock {
        journal.absorb(read.records)
        journal.cursor = cursor.cloudCursor
        noteSuccess(startedAfter: started)
        return !journal.pending.isEmpty
      }
      if hasPending { try pushPending() }
      return lock.withLock {
        CloudRecordBatch(
          records: journal.records, cursor: cursor.cloudCursor, refused: read.refused)
      }
    } catch let error as EtcdError where error.kind == .unreachable {
      return lock.withLock {
        noteOffline(error)
        return CloudRecordBatch(
          records: journal.records, cursor: journal.cursor ?? EtcdCursor.none)
      }
    } catch {
      lock.withLock { noteFailure(error) }
      throw error
    }
  }

  /// Keeps the records in the journal, then pushes every pending write in one save (see the
  /// type's documentation). Returns without error when the cluster is unreachable: the writes
  /// stay pending and are pushed when it answers.
  ///
  /// - Throws: ``EtcdError`` when the cluster refuses the save (permission denied, a request too
  ///   large): the refused writes are dropped from the journal, and the store keeps them.
  ///   `CloudQuotaViolation` naming the records that would take the container past
  ///   `CloudQuota` across all devices (the others are saved).
  public func save(_ records: [PropertyListKey: CloudRecord]) throws {
    guard !records.isEmpty else { return }
    let waitForRetry = lock.withLock {
      accepting.merge(records.mapValues(\.timestamp)) { $1 }
      journal.add(pending: records)
      persistJournal()
      return connection == .offline && retryScheduled
    }
    defer {
      lock.withLock {
        for (key, record) in records where accepting[key] == record.timestamp {
          accepting[key] = nil
        }
      }
    }
    if waitForRetry { return }
    try pushPending()
  }

  /// Delivers the records saved after `cursor` and every later save, from a resilient watch.
  public func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  ) -> ObservationToken {
    let id = ObserverIDs.next()
    lock.withLock {
      let watch = makeWatch(id: id, layout: layout, from: EtcdCursor(cursor))
      subscriptions[id] = Subscription(handler: handler, watch: watch)
    }
    return ObservationToken(id: id) { [weak self] in
      guard let self else { return }
      self.lock.withLock { self.subscriptions.removeValue(forKey: id) }?.watch.cancel()
    }
  }

  /// Signs this device into `account`, on the backend's queue: reads the account's records
  /// (from its journal when the cluster is unreachable), restarts the watches on its prefix, and
  /// delivers `CloudBackendEvent/accountChanged(account:_:)` to every subscriber.
  ///
  /// - Throws: ``EtcdError`` when the cluster refuses the read (the device keeps its account), or
  ///   `PropertyListError` for an unreadable journal file.
  public func switchAccount(to account: String) throws {
    try onQueue {
      let newLayout = EtcdKeyLayout(
        root: configuration.root, container: configuration.container, account: account)
      var newJournal = try CloudDeviceJournal(
        directory: configuration.stateDirectory, container: configuration.container,
        account: account)
      var cursor = EtcdCursor(newJournal.cursor)
      var refused: [PropertyListKey: String] = [:]
      do {
        let response = try client.range(key: newLayout.prefixKey, rangeEnd: newLayout.rangeEnd)
        let kvs = response.kvs ?? []
        let read = EtcdRecordReader.records(kvs, layout: newLayout)
        newJournal.absorb(read.records)
        refused = read.refused
        cursor = EtcdCursor(
          clusterID: response.header?.clusterId ?? "",
          revision: EtcdRecordReader.highestRevision(kvs))
        newJournal.cursor = cursor?.cloudCursor
      } catch let error as EtcdError where error.kind == .unreachable {
        lock.withLock { noteOffline(error) }
      } catch {
        newJournal.releaseFile()
        throw error
      }
      let batch = CloudRecordBatch(
        records: newJournal.records, cursor: cursor?.cloudCursor ?? EtcdCursor.none,
        refused: refused)
      let handlers: [@Sendable (CloudBackendEvent) -> Void] = lock.withLock {
        journal.releaseFile()
        journal = newJournal
        currentAccount = account
        layout = newLayout
        generation += 1
        for (id, subscription) in subscriptions {
          subscription.watch.cancel()
          subscriptions[id]?.watch = makeWatch(id: id, layout: newLayout, from: cursor)
        }
        return subscriptions.values.map(\.handler)
      }
      for handler in handlers { handler(.accountChanged(account: account, batch)) }
    }
  }

  // MARK: Pushing

  /// Sends the journal's pending writes; on success they leave the journal.
  ///
  /// - Throws: ``EtcdError`` for a refusal (not for an unreachable cluster, which schedules a
  ///   retry); `CloudQuotaViolation` naming the writes the container's quota refused (the
  ///   others are saved; all leave the journal).
  private func pushPending() throws {
    let refused: [PropertyListKey] = try pushLock.withLock {
      let (pending, layout, started) = lock.withLock {
        (journal.pending, self.layout, failuresNoted)
      }
      guard !pending.isEmpty else { return [] }
      do {
        let refused = try EtcdSaveTransaction.save(pending, under: layout, with: client)
        lock.withLock {
          journal.acknowledge(pending)
          journal.forget(refused, of: pending)
          noteSuccess(startedAfter: started)
          persistJournal()
        }
        return refused
      } catch let error as EtcdError where error.kind == .unreachable {
        lock.withLock { noteOffline(error) }
        return []
      } catch {
        lock.withLock {
          journal.acknowledge(pending)
          noteFailure(error)
          persistJournal()
        }
        throw error
      }
    }
    if !refused.isEmpty { throw CloudQuotaViolation(keys: refused) }
  }

  // MARK: State (called with `lock` held)

  /// Notes a linearizable exchange (or a watch event) that started when `started` failures
  /// were noted: the device is connected and its last exchange reached the cluster's quorum —
  /// unless a failure was noted since it started (nil: a watch event, which counts unless the
  /// device is offline; the watch's next stream says when it is back).
  private func noteSuccess(startedAfter started: Int?) {
    if let started, started != failuresNoted { return }
    if started == nil, connection == .offline { return }
    connection = .connected
    reachedQuorum = true
    lastSync = Date()
    lastError = nil
  }

  /// Notes a failure other than an unreachable cluster: refused credentials or permissions make
  /// the device `refused` until an exchange succeeds.
  private func noteFailure(_ error: any Error) {
    lastError = "\(error)"
    reachedQuorum = false
    failuresNoted += 1
    if let error = error as? EtcdError,
      error.kind == .authenticationFailed || error.kind == .permissionDenied
    {
      connection = .refused
    }
  }

  /// Marks the device offline and schedules a retry of the pending writes.
  private func noteOffline(_ error: EtcdError) {
    connection = .offline
    reachedQuorum = false
    failuresNoted += 1
    lastError = "\(error)"
    scheduleRetry()
  }

  /// Starts the checks that a member answers (none for an interval of 0): a watch waiting on a
  /// member that stopped answering (a stopped process, a lost network) learns nothing until its
  /// idle timeout, so without them the device would stay `connected`.
  private func startHeartbeat() {
    let interval = configuration.heartbeatInterval
    guard interval > 0 else { return }
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
    timer.setEventHandler { [weak self] in self?.checkReachability() }
    timer.resume()
    heartbeat = timer
  }

  /// One heartbeat: counts the account's keys (unless the device is offline, which its retry
  /// checks) and notes the answer.
  private func checkReachability() {
    let layout: EtcdKeyLayout? = lock.withLock { connection == .offline ? nil : self.layout }
    guard let layout else { return }
    do {
      try probe(layout)
    } catch let error as EtcdError where error.kind == .unreachable {
      lock.withLock { noteOffline(error) }
    } catch {
      lock.withLock { noteFailure(error) }
    }
  }

  /// Counts the account's keys (the heartbeat's and the retry's check that a member answers)
  /// and notes the success.
  private func probe(_ layout: EtcdKeyLayout) throws {
    let started = lock.withLock { failuresNoted }
    _ = try client.range(key: layout.prefixKey, rangeEnd: layout.rangeEnd, countOnly: true)
    lock.withLock { noteSuccess(startedAfter: started) }
  }

  private func scheduleRetry(after delay: TimeInterval = 0.25) {
    guard !retryScheduled else { return }
    retryScheduled = true
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
      self?.retry(delay: delay)
    }
  }

  /// Tries the cluster again: pushes what is pending (or reads one key count); reschedules itself
  /// with a growing delay (at most 2 s) while the device is offline.
  private func retry(delay: TimeInterval) {
    let layout = lock.withLock {
      retryScheduled = false
      return self.layout
    }
    do {
      try probe(layout)
      try pushPending()
    } catch {
      // Noted by the probe or the push; the device stays offline.
    }
    // Also after a success that did not count (a failure was noted while it ran).
    lock.withLock {
      guard connection == .offline, !retryScheduled else { return }
      scheduleRetry(after: min(delay * 2, 2))
    }
  }

  private func persistJournal() {
    if let failure = journal.persistReportingFailure() { lastError = failure }
  }

  // MARK: Watches

  /// A watch whose deliveries go through the queue, dropped after an account switch or cancel.
  private func makeWatch(id: UInt64, layout: EtcdKeyLayout, from cursor: EtcdCursor?) -> EtcdWatch {
    let generation = self.generation
    let callbacks = EtcdWatch.Callbacks(
      deliver: { [weak self] records, cursor in
        guard let self else { return }
        queue.async { self.deliver(records, cursor: cursor, to: id, generation: generation) }
      },
      erased: { [weak self] keys in
        guard let self else { return }
        queue.async { self.writeAgain(keys, generation: generation) }
      },
      reachability: { [weak self] error, endpoint, everyMemberFailed in
        self?.watchReached(error: error, endpoint: endpoint, everyMemberFailed: everyMemberFailed)
      })
    return EtcdWatch(
      client: client, layout: layout, from: cursor, idleTimeout: configuration.watchIdleTimeout,
      callbacks: callbacks)
  }

  private func deliver(
    _ read: DecodedRecords, cursor: EtcdCursor, to id: UInt64, generation: Int
  ) {
    let records = read.records
    let handler: (@Sendable (CloudBackendEvent) -> Void)? = lock.withLock {
      guard generation == self.generation, let subscription = subscriptions[id] else { return nil }
      journal.absorb(records)
      let seen = EtcdCursor(journal.cursor)
      if (seen?.revision ?? 0) < cursor.revision || seen?.clusterID != cursor.clusterID {
        journal.cursor = cursor.cloudCursor
      }
      noteSuccess(startedAfter: nil)
      persistJournal()
      return subscription.handler
    }
    handler?(
      .changed(
        CloudRecordBatch(records: records, cursor: cursor.cloudCursor, refused: read.refused)))
  }

  /// Writes again the records of `keys` that another client deleted from the cluster (the
  /// account's prefix deleted and made again, a restore): this device's records of them, its
  /// pending writes among them, keep their timestamps, so the devices that write them again
  /// agree per key (the later write wins) and a record written since is not replaced.
  private func writeAgain(_ keys: [String], generation: Int) {
    let mustPush: Bool = lock.withLock {
      guard generation == self.generation else { return false }
      let erased = Set(keys.lazy.map { PropertyListKey($0) })
      let known = journal.records.filter { erased.contains($0.key) }
      guard !known.isEmpty else { return false }
      journal.add(pending: known)
      persistJournal()
      return true
    }
    if mustPush { DispatchQueue.global().async { [weak self] in try? self?.pushPending() } }
  }

  /// A watch's exchange with `endpoint` succeeded (nil) or failed: a success prefers that member
  /// and, after a disconnection, pushes what is pending (the device is connected, its quorum
  /// unproven until a linearizable exchange); a failure on every member in a row makes the
  /// device offline at once, without waiting for the heartbeat's request to time out.
  private func watchReached(error: EtcdError?, endpoint: String, everyMemberFailed: Bool) {
    guard let error else {
      client.prefer(endpoint)
      let mustPush = lock.withLock {
        let wasOffline = connection != .connected
        if wasOffline { reachedQuorum = false }
        connection = .connected
        return wasOffline && !journal.pending.isEmpty
      }
      if mustPush { DispatchQueue.global().async { [weak self] in try? self?.pushPending() } }
      return
    }
    lock.withLock {
      if error.kind == .unreachable, everyMemberFailed {
        noteOffline(error)
      } else {
        noteFailure(error)
      }
    }
  }

  /// Runs `body` on the backend's queue and waits, or at once when already on it.
  private func onQueue<T>(_ body: () throws -> T) rethrows -> T {
    if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) { return try body() }
    return try queue.sync(execute: body)
  }
}

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
public final class EtcdCloudBackend: CloudBackend, Sendable {
  /// What this device connects to (its account is the one given at creation; see ``account``).
  public let configuration: EtcdConfiguration
  let client: EtcdClient
  /// Serial queue of deliveries and account switches.
  private let queue = CloudDeviceQueue(label: "etcd")
  /// Serializes pushes of pending writes.
  private let pushLock = AnnotatedMutex(())

  typealias Device = CloudEngineDevice<EtcdWatch, EtcdCursor, EtcdError>

  /// What the device keeps besides its client, under `state`'s lock.
  struct State {
    var device: Device
    /// Where the current account's keys are.
    var layout: EtcdKeyLayout
    var retryScheduled = false
  }
  let state: AnnotatedMutex<State>

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
    let journal = try CloudDeviceJournal(
      directory: configuration.stateDirectory, container: configuration.container,
      account: configuration.account)
    state = AnnotatedMutex(
      State(
        device: Device(account: configuration.account, journal: journal),
        layout: EtcdKeyLayout(
          root: configuration.root, container: configuration.container,
          account: configuration.account)))
    scheduleHeartbeat()
  }

  deinit {
    state.withLock {
      $0.device.cancelWatches()
      $0.device.journal.releaseFile()
    }
  }

  /// The account this device is signed into.
  public var account: String {
    state.withLock { $0.device.account }
  }

  /// `etcd`, the member in use, connected / connecting / offline, the writes not yet acknowledged,
  /// the last successful exchange and the last error.
  public var syncStatus: CloudSyncStatus {
    let endpoint = client.currentEndpoint
    return state.withLock { $0.device.status(backend: "etcd", endpoint: endpoint) }
  }

  // MARK: CloudBackend

  /// Reads every record of the account, pushes the journal's pending writes, and returns the
  /// records with the pending writes over them. Without a cluster, returns the journal's copy.
  ///
  /// - Throws: ``EtcdError`` when the cluster refuses (permission, authentication); never for an
  ///   unreachable cluster.
  public func load() throws -> CloudRecordBatch {
    let (layout, started) = state.withLock { ($0.layout, $0.device.exchange.failuresNoted) }
    do {
      let (read, cursor) = try self.read(layout)
      let hasPending = state.withLock {
        $0.device.journal.absorb(read.records)
        $0.device.journal.cursor = cursor.cloudCursor
        $0.device.exchange.succeeded(startedAfter: started)
        return !$0.device.journal.pending.isEmpty
      }
      if hasPending { try pushPending() }
      return state.withLock {
        CloudRecordBatch(
          records: $0.device.journal.records, cursor: cursor.cloudCursor, refused: read.refused)
      }
    } catch let error as EtcdError where error.kind == .unreachable {
      noteOffline(error)
      return localBatch()
    } catch {
      noteFailure(error)
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
    let waitForRetry = state.withLock {
      $0.device.journal.add(handed: records)
      $0.device.persistJournal()
      return $0.device.exchange.outcome == .unreachable && $0.retryScheduled
    }
    // The store counts its writes itself only until this returns.
    defer { state.withLock { $0.device.journal.takeBack(records) } }
    if waitForRetry { return }
    try pushPending()
  }

  /// Delivers the records saved after `cursor` and every later save, from a resilient watch.
  public func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  ) -> ObservationToken {
    let id = state.withLock {
      let layout = $0.layout
      return $0.device.subscribe(from: EtcdCursor(cursor), handler) {
        makeWatch(id: $0, generation: $1, layout: layout, from: $2)
      }
    }
    return ObservationToken(id: id) { [weak self] in
      self?.state.withLock { $0.device.unsubscribe(id) }?.cancel()
    }
  }

  /// Signs this device into `account`, on the backend's queue: reads the account's records
  /// (from its journal when the cluster is unreachable), restarts the watches on its prefix, and
  /// delivers `CloudBackendEvent/accountChanged(account:_:)` to every subscriber.
  ///
  /// - Throws: ``EtcdError`` when the cluster refuses the read (the device keeps its account), or
  ///   `PropertyListError` for an unreadable journal file.
  public func switchAccount(to account: String) throws {
    let newLayout = layout(account)
    try signIn(
      to: account, on: queue, directory: configuration.stateDirectory,
      container: configuration.container
    ) { journal in
      var refused: [PropertyListKey: String] = [:]
      do {
        let (read, cursor) = try self.read(newLayout)
        journal.absorb(read.records)
        journal.cursor = cursor.cloudCursor
        refused = read.refused
      } catch let error as EtcdError where error.kind == .unreachable {
        noteOffline(error)
      }
      return CloudRecordBatch(
        records: journal.records, cursor: journal.cursor ?? Self.noCursor, refused: refused)
    } install: { journal, _ in
      state.withLock {
        $0.layout = newLayout
        return $0.device.switchAccount(
          to: account, journal: journal, after: EtcdCursor(journal.cursor)
        ) {
          makeWatch(id: $0, generation: $1, layout: newLayout, from: $2)
        }
      }
    }
  }

  /// Every record under `layout` and the cursor after them.
  private func read(_ layout: EtcdKeyLayout) throws -> (DecodedRecords, EtcdCursor) {
    let response = try client.range(key: layout.prefixKey, rangeEnd: layout.rangeEnd)
    let kvs = response.kvs ?? []
    let cursor = EtcdCursor(
      identity: response.header?.clusterId ?? "", revision: EtcdRecordReader.highestRevision(kvs))
    return (EtcdRecordReader.records(kvs, layout: layout), cursor)
  }

  private func layout(_ account: String) -> EtcdKeyLayout {
    EtcdKeyLayout(root: configuration.root, container: configuration.container, account: account)
  }

  // MARK: Pushing

  /// Sends the journal's pending writes; on success they leave the journal.
  ///
  /// - Throws: ``EtcdError`` for a refusal (not for an unreachable cluster, which schedules a
  ///   retry); `CloudQuotaViolation` naming the writes the container's quota refused (the
  ///   others are saved; all leave the journal).
  private func pushPending() throws {
    let refused: [PropertyListKey] = try pushLock.withLock { _ in
      let (pending, layout, started) = state.withLock {
        ($0.device.journal.pending, $0.layout, $0.device.exchange.failuresNoted)
      }
      guard !pending.isEmpty else { return [] }
      do {
        let refused = try EtcdSaveTransaction.save(pending, under: layout, with: client)
        state.withLock {
          $0.device.journal.acknowledge(pending)
          $0.device.journal.forget(refused, of: pending)
          $0.device.exchange.succeeded(startedAfter: started)
          $0.device.persistJournal()
        }
        return refused
      } catch let error as EtcdError where error.kind == .unreachable {
        noteOffline(error)
        return []
      } catch {
        state.withLock {
          $0.device.journal.acknowledge(pending)
          $0.device.exchange.failed(error, as: Self.outcome(of: error))
          $0.device.persistJournal()
        }
        throw error
      }
    }
    if !refused.isEmpty { throw CloudQuotaViolation(keys: refused) }
  }

  // MARK: State

  /// What a failure other than an unreachable cluster makes the device: refused credentials or
  /// permissions make it `refused` until an exchange succeeds; another refusal (a request too
  /// large) keeps its state.
  private static func outcome(of error: any Error) -> Device.Outcome? {
    guard let error = error as? EtcdError,
      error.kind == .authenticationFailed || error.kind == .permissionDenied
    else { return nil }
    return .refused
  }

  /// Notes a failure other than an unreachable cluster (see ``outcome(of:)``).
  private func noteFailure(_ error: any Error) {
    state.withLock { $0.device.exchange.failed(error, as: Self.outcome(of: error)) }
  }

  /// Marks the device offline and schedules a retry of the pending writes.
  private func noteOffline(_ error: EtcdError) {
    let mustSchedule = state.withLock { state in
      state.device.exchange.failed(error, as: .unreachable)
      defer { state.retryScheduled = true }
      return !state.retryScheduled
    }
    if mustSchedule { scheduleRetry(after: 0.25) }
  }

  /// Checks that a member answers after each ``EtcdConfiguration/heartbeatInterval`` while the
  /// device lives (never for an interval of 0): a watch waiting on a member that stopped
  /// answering (a stopped process, a lost network) learns nothing until its idle timeout, so
  /// without them the device would stay `connected`.
  private func scheduleHeartbeat() {
    let interval = configuration.heartbeatInterval
    guard interval > 0 else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + interval) { [weak self] in
      guard let self else { return }
      checkReachability()
      scheduleHeartbeat()
    }
  }

  /// One heartbeat: counts the account's keys (unless the device is offline, which its retry
  /// checks) and notes the answer.
  private func checkReachability() {
    let layout: EtcdKeyLayout? = state.withLock {
      $0.device.exchange.outcome == .unreachable ? nil : $0.layout
    }
    guard let layout else { return }
    do {
      try probe(layout)
    } catch let error as EtcdError where error.kind == .unreachable {
      noteOffline(error)
    } catch {
      noteFailure(error)
    }
  }

  /// Counts the account's keys (the heartbeat's and the retry's check that a member answers)
  /// and notes the success.
  private func probe(_ layout: EtcdKeyLayout) throws {
    let started = state.withLock { $0.device.exchange.failuresNoted }
    _ = try client.range(key: layout.prefixKey, rangeEnd: layout.rangeEnd, countOnly: true)
    state.withLock { $0.device.exchange.succeeded(startedAfter: started) }
  }

  /// Runs ``retry(delay:)`` after `delay`; `retryScheduled` is set.
  private func scheduleRetry(after delay: TimeInterval) {
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
      self?.retry(delay: delay)
    }
  }

  /// Tries the cluster again: pushes what is pending (or reads one key count); reschedules itself
  /// with a growing delay (at most 2 s) while the device is offline.
  private func retry(delay: TimeInterval) {
    let layout = state.withLock {
      $0.retryScheduled = false
      return $0.layout
    }
    do {
      try probe(layout)
      try pushPending()
    } catch {
      // Noted by the probe or the push; the device stays offline.
    }
    // Also after a success that did not count (a failure was noted while it ran).
    let mustSchedule = state.withLock {
      guard $0.device.exchange.outcome == .unreachable, !$0.retryScheduled else { return false }
      $0.retryScheduled = true
      return true
    }
    if mustSchedule { scheduleRetry(after: min(delay * 2, 2)) }
  }

  // MARK: Watches

  /// A watch whose deliveries go through the queue, dropped after an account switch or cancel.
  private func makeWatch(
    id: UInt64, generation: Int, layout: EtcdKeyLayout, from cursor: EtcdCursor?
  ) -> EtcdWatch {
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
    let handler = state.withLock {
      $0.device.deliver(read.records, upTo: cursor, to: id, generation: generation) {
        $0.committedRevisionDelivered()
      }
    }
    handler?(
      .changed(
        CloudRecordBatch(records: read.records, cursor: cursor.cloudCursor, refused: read.refused)))
  }

  /// Writes again the records of `keys` that another client deleted from the cluster (the
  /// account's prefix deleted and made again, a restore): this device's records of them, its
  /// pending writes among them, keep their timestamps, so the devices that write them again
  /// agree per key (the later write wins) and a record written since is not replaced.
  private func writeAgain(_ keys: [String], generation: Int) {
    let mustPush: Bool = state.withLock {
      guard $0.device.isCurrent(generation) else { return false }
      let erased = Set(keys.lazy.map { PropertyListKey($0) })
      let known = $0.device.journal.records.filter { erased.contains($0.key) }
      guard !known.isEmpty else { return false }
      $0.device.journal.add(pending: known)
      $0.device.persistJournal()
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
      let mustPush = state.withLock {
        $0.device.exchange.answered() && !$0.device.journal.pending.isEmpty
      }
      if mustPush { DispatchQueue.global().async { [weak self] in try? self?.pushPending() } }
      return
    }
    if error.kind == .unreachable, everyMemberFailed {
      noteOffline(error)
    } else {
      noteFailure(error)
    }
  }
}

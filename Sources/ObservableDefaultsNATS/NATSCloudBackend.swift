import Foundation
public import ObservableDefaultsCore

/// A cloud backend on a NATS JetStream cluster: devices on different machines sync through
/// key-value buckets that the servers replicate, and that NATS accounts keep apart.
///
/// Each backend instance is one device. The credentials choose the NATS account (the tenant: one
/// per person or organisation, isolated by the server); in it, each container and account of the
/// store has its own bucket (`<container>-<account>`, see ``NATSConfiguration``), created by the
/// first device that needs it with limits the servers enforce for every device: one revision per
/// key, a record's size, and the bucket's bytes. One key per store key; its value is the record's
/// timestamp header followed by a binary property list, as etcd's.
///
/// - **Save**: merges the records into the device's copy of the bucket, brought up to the
///   bucket's last revision (per key the later timestamp, and `CloudQuota`), and writes each
///   record only if the bucket's last revision is still the one the merge saw, merging again
///   after another device's write — so a slower device never overwrites a later write, and the
///   quota holds across devices. A write the server refuses because the bucket is full reaches
///   the store as `CloudQuotaViolation`.
/// - **Subscribe**: an ordered JetStream consumer per subscription that starts after the cursor's
///   revision and survives reconnections and lost servers (nothing lost, nothing twice); a save's
///   keys arrive as one change. The device's copy of each bucket it uses is kept by one more.
/// - **Connection**: libnats tries the servers in a random order (it shuffles the list,
///   spreading devices over them), also when none answers at creation, and reconnects after a
///   failure. When libnats closes the connection for good (a server refused the credentials
///   twice in a row, or its background first connection failed), or the servers refused the
///   credentials or the TLS handshake at the device's launch, the device makes a new one after
///   `reconnectDelays` (1 s, doubling to 10 s) and again after each failure, `refused` meanwhile
///   with the servers' reason; with the new one it resumes its watches where they stopped and
///   pushes its pending writes. A save without a server throws ``NATSError`` of kind
///   `.unreachable` after ``NATSConfiguration/requestTimeout``, and the store keeps its writes
///   and tries again; a load without a server, or refused by it, answers from the device's
///   local copy.
/// - **State**: ``syncStatus`` says what the last exchange proved (`NATSExchangeState`):
///   `connected` only after one succeeded — a server without a JetStream quorum keeps libnats'
///   socket up while it answers "No responders", and the device is `offline` then — and
///   `synced` when it was an answered JetStream request and nothing is pending.
/// - **Local copy**: every save lands first in the device's journal (`CloudDeviceJournal`, a
///   file under ``NATSConfiguration/stateDirectory``), which also keeps the records last seen and
///   the resume point. Writes made offline survive a restart and are pushed by the first
///   exchange that reaches a server: a save, a load, a watch's delivery, libnats' (re)connection,
///   or the probe the device makes every 5 s. Only a write that cannot be encoded
///   ever leaves the journal unsent.
/// - **A bucket deleted and made again** (by an operator, a restore, any client of the
///   account) starts its revisions again: the device notices it by its stream's creation time
///   (at its next exchange or probe, or at its start from its journal's resume point), writes
///   every record of its journal again with its timestamp (the later write of each key wins),
///   and its watches start again from the new bucket's first revision.
/// - **Security**: the device authenticates with ``NATSConfiguration/credentials``; TLS with
///   ``NATSConfiguration/tls``. A NATS account sees only its own buckets: another account's is
///   `.notFound`.
///
/// The servers need JetStream enabled for the account and `max_payload` of at least
/// 2 MiB + 4 KiB, the largest record (NATS' default is 1 MB).
///
/// ```swift
/// let backend = try NATSCloudBackend(configuration: NATSConfiguration(
///   servers: ["nats://10.0.0.2:4222", "nats://10.0.0.3:4222"], container: "com.example.app",
///   account: "alice", credentials: try .passwordFile("/home/alice/.config/nats-password")))
/// let store = NSUbiquitousKeyValueStore(backend: backend)
/// ```
public final class NATSCloudBackend: CloudBackend, Sendable {
  /// What this device connects to (its account is the one given at creation; see ``account``).
  public let configuration: NATSConfiguration
  /// Serial queue of deliveries, account switches and new connections.
  private let queue = CloudDeviceQueue(label: "nats")

  typealias Device = CloudEngineDevice<NATSWatch, NATSCursor, NATSError>
  typealias OpenBucket = (bucket: NATSBucket, mirror: NATSMirror)

  /// What the device keeps besides its configuration, under `state`'s lock.
  struct State {
    var device: Device
    /// The connection in use; replaced when libnats closes it (see ``reconnect()``). Nil while
    /// the servers refused the device since its launch (it is `refused`, and tries again).
    var connection: NATSConnection?
    /// Failed attempts at a new connection since the last success.
    var reconnectAttempts = 0
    /// Why the last attempt at a connection failed, while there is none (see ``connection``).
    var connectionFailure: NATSError?
    /// The buckets open on ``connection`` and the device's copy of each.
    var buckets: [NATSKeyLayout: OpenBucket] = [:]
    /// Whether a ``probe()`` is queued.
    var probeQueued = false
  }
  let state: AnnotatedMutex<State>

  /// The connection in use (nil while the servers refused the device since its launch).
  var connection: NATSConnection? { state.withLock { $0.connection } }

  /// Seconds before each attempt to make a new connection after libnats closed one: 1, 2, 4, 8,
  /// then 10 until one succeeds (the store's retry of a failed save has the same cap).
  static let reconnectDelays: [TimeInterval] = [1, 2, 4, 8, 10]

  /// Serial queue of ``probe()``s, which wait for the servers (not to hold up deliveries).
  let probes = DispatchQueue(label: "ObservableDefaultsNATS.cloud.probe")
  /// Seconds between two ``probe()``s of a device (5): how soon an idle device notices that
  /// its servers came back or its bucket was deleted and made again.
  static let probeInterval: TimeInterval = 5

  /// Connects a new device (in the background when no server answers yet).
  ///
  /// Servers that refuse the credentials or the TLS handshake do not stop the device: it is
  /// made `refused`, with their reason in its status' `lastError`, keeps its writes in its
  /// journal and tries again as after a closed connection (1 s, doubling to 10 s) — never a
  /// silent fall back to another container.
  ///
  /// - Parameter configuration: Servers, container, account, credentials, TLS files and limits.
  /// - Throws: ``NATSConfigurationError`` for a configuration without servers; ``NATSError``
  ///   when libnats refuses the options (an unreadable certificate or credentials file, a
  ///   malformed URL); `PropertyListError` when the journal file exists but cannot be read (it
  ///   is left untouched).
  public init(configuration: NATSConfiguration) throws {
    guard !configuration.servers.isEmpty else {
      throw NATSConfigurationError(
        "the NATS backend needs at least one server (\(NATSConfiguration.serversVariable))")
    }
    self.configuration = configuration
    let journal = try CloudDeviceJournal(
      directory: configuration.stateDirectory, container: configuration.container,
      account: configuration.account)
    var device = Device(account: configuration.account, journal: journal)
    let connection: NATSConnection?
    var refusal: NATSError?
    do {
      connection = try NATSConnection(configuration)
    } catch  where error.kind == .permissionDenied {
      connection = nil
      refusal = error
      device.exchange.failed(error)
    } catch {
      journal.releaseFile()
      throw error
    }
    state = AnnotatedMutex(
      State(device: device, connection: connection, connectionFailure: refusal))
    if let connection {
      watchConnection(connection)
    } else {
      scheduleReconnect()
    }
    scheduleProbe()
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

  /// `nats`, the server in use, the state the last exchange proved (`synced` when it was a
  /// JetStream request that was answered and nothing is pending, see
  /// `CloudSyncStatus.reachedQuorum`; `connected` only when it succeeded; `offline` when no
  /// server answered it, also while libnats keeps a socket to a server without a JetStream
  /// quorum; `refused` when the servers refused the credentials, a permission or writes over
  /// the quota; `unusable configuration` when JetStream refused the configuration itself, see
  /// ``NATSConfiguration/replicas``), the writes of the journal that the store does not count
  /// (those made before a restart and not yet acknowledged), the last successful exchange and
  /// the last error (never holding credentials).
  public var syncStatus: CloudSyncStatus {
    state.withLock {
      let socket = $0.connection?.current ?? NATSConnection.State(connection: .offline)
      return $0.device.status(backend: "nats", endpoint: socket.server, socket: socket.connection)
    }
  }

  // MARK: CloudBackend

  /// Pushes the journal's pending writes, reads every record of the account's bucket (creating
  /// the bucket when it does not exist), and returns them with the pending writes over them.
  /// Without a server, or refused by the servers (the credentials, a permission), returns the
  /// journal's copy: the device's values are there at once, and its state says why.
  ///
  /// - Throws: ``NATSError`` when the servers refuse otherwise (e.g. an unusable configuration).
  public func load() throws -> CloudRecordBatch {
    let target = layout(currentAccountName)
    do {
      let read = try onBucketGone(target) { () throws -> CloudRecordBatch in
        do {
          try pushPending()
        } catch is CloudQuotaViolation {
          // The refused writes left the journal; the bucket's records take their place.
        }
        let read = try exchange { try batch(of: target) }
        if state.withLock({ Self.isAnotherBucket(read.cursor, than: $0.device.journal.cursor) }) {
          throw NATSError(
            kind: .notFound,
            message: "the bucket \(target.bucket) was deleted and made again since the last run")
        }
        return read
      }
      return state.withLock {
        let (batch, changed) = Self.absorb(read, into: &$0.device.journal)
        if changed { $0.device.persistJournal() }
        return batch
      }
    } catch let error as NATSError
      where error.kind == .unreachable || error.kind == .permissionDenied
    {
      return localBatch()
    }
  }

  /// Saves the records that are later than the bucket's, key by key with compare-and-set (see
  /// the type's documentation).
  ///
  /// - Throws: `CloudQuotaViolation` naming the records refused by `CloudQuota` or by the
  ///   bucket's limits on the server (the others are saved); ``NATSError`` when no server
  ///   answers or the servers refuse.
  public func save(_ records: [PropertyListKey: CloudRecord]) throws {
    guard !records.isEmpty else { return }
    state.withLock {
      $0.device.journal.add(handed: records)
      $0.device.persistJournal()
    }
    try pushPending()
  }

  /// Delivers the records saved after `cursor` and every later save, from a watch.
  public func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  ) -> ObservationToken {
    let id = state.withLock { state in
      let (layout, connection) = (layout(state.device.account), state.connection)
      return state.device.subscribe(from: NATSCursor(cursor), handler) {
        makeWatch(id: $0, generation: $1, on: connection, layout: layout, after: $2)
      }
    }
    return ObservationToken(id: id) { [weak self] in
      self?.state.withLock { $0.device.unsubscribe(id) }?.cancel()
    }
  }

  /// Signs this device into `account`, on the backend's queue: reads the account's bucket,
  /// restarts the watches on it, and delivers `CloudBackendEvent.accountChanged`
  /// to every subscriber.
  ///
  /// - Throws: ``NATSError`` when the bucket cannot be read (the device keeps its account).
  public func switchAccount(to account: String) throws {
    let newLayout = layout(account)
    try signIn(
      to: account, on: queue, directory: configuration.stateDirectory,
      container: configuration.container
    ) { journal in
      do {
        return Self.absorb(try exchange { try self.batch(of: newLayout) }, into: &journal).batch
      } catch let error as NATSError where error.kind == .unreachable {
        return journal.localBatch(none: Self.noCursor)
      }
    } install: { journal, batch in
      state.withLock { state in
        let connection = state.connection
        return state.device.switchAccount(
          to: account, journal: journal, after: NATSCursor(batch.cursor)
        ) { makeWatch(id: $0, generation: $1, on: connection, layout: newLayout, after: $2) }
      }
    }
  }

  // MARK: Connection

  /// Follows `connection`'s closing and (re)connections.
  private func watchConnection(_ connection: NATSConnection) {
    connection.whenClosed { [weak self, weak connection] in
      self?.connectionClosed(why: connection?.closedError())
    }
    connection.whenConnected { [weak self] in self?.connected() }
    if connection.current.connection == .connected { connected() }
  }

  /// Notes that libnats closed the connection (on libnats' thread) because of `error` (the
  /// servers refused the credentials, or none answered; nil: libnats gave no reason, which
  /// keeps a refusal's) and schedules a new one.
  private func connectionClosed(why error: NATSError?) {
    state.withLock {
      if let error {
        $0.device.exchange.failed(error)
      } else {
        $0.device.exchange.closedWithoutReason(
          "libnats closed the connection to \(configuration.serverList)")
      }
    }
    scheduleReconnect()
  }

  /// Notes that libnats connected (also in the background, after no server answered at the
  /// device's start) or reconnected: probes at once when writes of the journal wait or the last
  /// exchange found no server, so the journal goes out without the app writing again.
  private func connected() {
    let needed = state.withLock {
      $0.device.journal.unhandedPendingCount > 0 || $0.device.exchange.outcome == .unreachable
    }
    if needed { probeSoon() }
  }

  /// Makes a new connection after the next of ``reconnectDelays``, on the backend's queue.
  private func scheduleReconnect() {
    let delay = state.withLock {
      Self.reconnectDelays[min($0.reconnectAttempts, Self.reconnectDelays.count - 1)]
    }
    queue.async(after: delay) { [weak self] in self?.reconnect() }
  }

  /// Replaces the closed connection: opens the buckets again on the new one as they are used,
  /// resumes each watch after its last delivery, and pushes the journal's pending writes. When
  /// the new connection fails too (the credentials refused: the device is `refused`), tries
  /// again later.
  private func reconnect() {
    let fresh: NATSConnection
    do {
      fresh = try NATSConnection(configuration)
    } catch {
      state.withLock {
        if $0.connection == nil { $0.connectionFailure = error }
        $0.device.exchange.failed(error)
        $0.reconnectAttempts += 1
      }
      scheduleReconnect()
      return
    }
    // The closed connection and its buckets are returned, so released outside the lock.
    _ = state.withLock { state in
      let closed = (state.connection, state.buckets)
      state.connection = fresh
      state.buckets = [:]
      state.reconnectAttempts = 0
      state.connectionFailure = nil
      restartWatches(&state) { $0 }
      return closed
    }
    watchConnection(fresh)
    probeSoon()
  }

  /// Ends every subscription's watch and starts one on the current account's bucket after the
  /// cursor `start` gives for the old watch's last delivery, on the current connection.
  func restartWatches(_ state: inout State, after start: (NATSCursor?) -> NATSCursor?) {
    let (connection, layout) = (state.connection, layout(state.device.account))
    state.device.restartWatches(after: start) {
      makeWatch(id: $0, generation: $1, on: connection, layout: layout, after: $2)
    }
  }

  // MARK: Journal

  /// Sends the journal's pending writes; once the servers took or refused them they leave it.
  ///
  /// - Throws: ``NATSError`` when no server answers (the writes stay in the journal) or the
  ///   servers refuse; `CloudQuotaViolation` naming the writes refused by `CloudQuota` or the
  ///   bucket's limits (the others are saved).
  ///   A bucket deleted meanwhile is noticed (see ``onBucketGone(_:_:)``).
  func pushPending() throws {
    let target = layout(currentAccountName)
    try onBucketGone(target) { try pushPending(to: target) }
  }

  /// Sends the journal's pending writes to `target`'s bucket (see ``pushPending()``). Only a
  /// write that cannot be encoded leaves the journal unsent; any other failure keeps them all.
  private func pushPending(to target: NATSKeyLayout) throws {
    let pending = state.withLock { $0.device.journal.pending }
    guard !pending.isEmpty else { return }
    let refused: [PropertyListKey]
    do {
      refused = try exchange {
        let (bucket, mirror) = try bucket(for: target)
        return try NATSSave.save(
          pending, to: bucket, mirror: mirror, within: configuration.requestTimeout)
      }
    } catch let error as CloudRecordError {
      acknowledge(pending, refused: [])
      throw error
    }
    acknowledge(pending, refused: refused)
    let violation = refused.isEmpty ? nil : CloudQuotaViolation(keys: refused)
    state.withLock { $0.device.exchange.pushed(refusing: violation) }
    if let violation { throw violation }
  }

  /// Takes `pushed` out of the journal's pending writes (and the `refused` ones out of its
  /// records, so that the bucket's record of each takes its place).
  private func acknowledge(_ pushed: [PropertyListKey: CloudRecord], refused: [PropertyListKey]) {
    state.withLock {
      $0.device.journal.acknowledge(pushed)
      $0.device.journal.forget(refused, of: pushed)
      $0.device.persistJournal()
    }
  }

  /// Takes a read of the bucket into `journal`.
  ///
  /// - Returns: What a load gives (the bucket's records with the journal's pending writes over
  ///   them), and whether the journal changed (so must be written).
  private static func absorb(_ read: CloudRecordBatch, into journal: inout CloudDeviceJournal)
    -> (batch: CloudRecordBatch, changed: Bool)
  {
    let taken = journal.absorb(read.records)
    let moved = journal.cursor != read.cursor
    journal.cursor = read.cursor
    return (
      CloudRecordBatch(records: journal.records, cursor: read.cursor, refused: read.refused),
      taken || moved
    )
  }

  // MARK: Buckets

  var currentAccountName: String { state.withLock { $0.device.account } }

  func layout(_ account: String) -> NATSKeyLayout {
    NATSKeyLayout(container: configuration.container, account: account)
  }

  /// The open bucket of `layout` and the device's copy of it, opened (or created) on first use.
  /// - Throws: ``NATSError``; at once, asking no server, once the configuration proved
  ///   unusable.
  func bucket(for layout: NATSKeyLayout) throws(NATSError) -> OpenBucket {
    let (open, connection, unusable, failure) = state.withLock {
      ($0.buckets[layout], $0.connection, $0.device.exchange.unusableError, $0.connectionFailure)
    }
    if let unusable { throw unusable }
    if let open { return open }
    guard let connection else {
      throw failure
        ?? NATSError(kind: .unreachable, message: "no connection to \(configuration.serverList)")
    }
    let bucket = try NATSBucket(layout, on: connection, replicas: configuration.replicas)
    let mirror = NATSMirror(bucket, on: connection)
    return state.withLock {
      if let existing = $0.buckets[layout] { return existing }
      // Not kept when the connection was replaced meanwhile: the next use opens it on the new one.
      if connection === $0.connection { $0.buckets[layout] = (bucket, mirror) }
      return (bucket, mirror)
    }
  }

  /// Every record of `layout`'s bucket and the cursor after them.
  private func batch(of layout: NATSKeyLayout) throws(NATSError) -> CloudRecordBatch {
    let (bucket, mirror) = try bucket(for: layout)
    let (entries, revision) = try mirror.contents(within: configuration.requestTimeout)
    return CloudRecordBatch(
      records: entries.compactMapValues(\.record),
      cursor: NATSCursor(identity: bucket.created, revision: revision).cloudCursor,
      refused: entries.compactMapValues(\.refusal))
  }

  /// Runs `body`, noting its success or failure for ``syncStatus``; once the configuration
  /// proved unusable, throws its error at once, asking no server.
  func exchange<T>(_ body: () throws -> T) throws -> T {
    if let unusable = state.withLock({ $0.device.exchange.unusableError }) { throw unusable }
    do {
      let result = try body()
      state.withLock { $0.device.exchange.succeeded() }
      return result
    } catch {
      state.withLock { $0.device.exchange.failed(error) }
      throw error
    }
  }

  // MARK: Watches

  /// A watch on `connection` (none without one) whose deliveries go through the queue, dropped
  /// after an account switch or cancel.
  private func makeWatch(
    id: UInt64, generation: Int, on connection: NATSConnection?, layout: NATSKeyLayout,
    after cursor: NATSCursor?
  ) -> NATSWatch? {
    guard let connection else { return nil }
    return NATSWatch(
      on: connection,
      open: { [weak self] in
        guard let self else { throw NATSError(kind: .unreachable, message: "the device ended") }
        return try bucket(for: layout).bucket
      },
      after: cursor,
      deliver: { [weak self] change in
        guard let self, !change.records.isEmpty || !change.refused.isEmpty else { return }
        queue.async { self.deliver(change, to: id, generation: generation) }
      })
  }

  private func deliver(_ change: NATSWatch.Change, to id: UInt64, generation: Int) {
    // A delivery is a successful exchange: the journal's writes of an earlier run go out then.
    let (handler, mustProbe) = state.withLock { state in
      let handler = state.device.deliver(
        change.records, upTo: change.cursor, to: id, generation: generation
      ) { $0.delivered() }
      // After a failure, the delivery asks for a probe: its exchange proves the state.
      let mustProbe =
        state.device.journal.unhandedPendingCount > 0
        || state.device.exchange.outcome == .unreachable
      return (handler, handler != nil && mustProbe)
    }
    if mustProbe { probeSoon() }
    handler?(
      .changed(
        CloudRecordBatch(
          records: change.records, cursor: change.cursor.cloudCursor, refused: change.refused)))
  }
}

/// Where a cloud key-value store keeps its data: one device's connection to a container of
/// records shared by several devices.
///
/// Small on purpose, so that a server-based engine can implement it: load everything, save the
/// changed keys, and subscribe to changes from a resume point. Conflicts are resolved per key by
/// ``CloudRecord/timestamp``: a backend keeps, for each key, the record with the greater timestamp
/// (see ``save(_:)``), and the store does the same with what it receives, so all devices converge.
///
/// Implementations: ``EmbeddedCloudBackend`` (a container on disk shared by the processes of this
/// machine, the default) and ``InMemoryCloudBackend`` (tests and development mode) here;
/// `EtcdCloudBackend` (module `ObservableDefaultsEtcd`: an etcd cluster, one trust domain) and
/// `NATSCloudBackend` (module `ObservableDefaultsNATS`: JetStream, accounts as tenants) across
/// machines. `ObservableDefaultsTesting`'s `CloudBackendConformance` checks an implementation.
public protocol CloudBackend: AnyObject, Sendable {
  /// Reads everything stored for the current account.
  ///
  /// - Returns: Every record (removals included) and the resume point after them.
  /// - Throws: When the container cannot be read; the store keeps its writes back until a load
  ///   or a subscription event succeeds.
  func load() throws -> CloudRecordBatch

  /// Saves changed keys. For each key the container keeps the record with the greater timestamp,
  /// so an older record is ignored; saving records that are all older or already stored changes
  /// nothing (and writes nothing).
  ///
  /// The container holds ``CloudQuota`` across devices: records that would take it past the
  /// limits (its keys with a value, its bytes, a key's length, counted as they would be after the
  /// save) are refused and the others saved.
  ///
  /// - Parameter records: Key → record, by exact key: keys that differ only in Unicode
  ///   normalization (`é` as U+00E9 and as `e` U+0301) are two records, as on every device.
  /// - Throws: ``CloudQuotaViolation`` naming the refused records (the others are saved); any
  ///   other error when the container cannot be written (nothing is saved then).
  func save(_ records: [PropertyListKey: CloudRecord]) throws

  /// Calls `handler` on a queue of the backend's with the records saved after `cursor` (by this
  /// device or others; saves of this device come back too and are ignored by timestamp), and with
  /// account switches, until the returned observation ends.
  ///
  /// - Parameters:
  ///   - cursor: Where to resume (from ``load()``); nil delivers everything stored.
  ///   - handler: Called once per event, never concurrently.
  /// - Returns: The subscription; it ends on `cancel()` or when released. It does not keep the
  ///   backend alive: keep the backend as long as the subscription.
  func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  )
    -> ObservationToken

  /// Signs this device into another account: subscribers then receive
  /// ``CloudBackendEvent/accountChanged(account:_:)`` with the new account's records.
  ///
  /// - Parameter account: The account identity (for the embedded backend: a folder name, no `/`).
  /// - Throws: When the new account's data cannot be read; the device keeps its account then.
  func switchAccount(to account: String) throws

  /// How this device's connection is doing (backend, endpoint, connected or offline, writes
  /// pending, last sync); a snapshot that never waits for the network.
  ///
  /// Its `pendingCount` counts the writes the backend holds beyond the ``save(_:)`` calls that
  /// are running (such as a journal of writes made offline): the store that calls `save` counts
  /// the writes of a running save as its own, so each write is counted once.
  var syncStatus: CloudSyncStatus { get }
}

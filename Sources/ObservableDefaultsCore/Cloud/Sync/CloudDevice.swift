import Foundation

/// One device: its copy of a container, the writes not yet saved, and its clock.
///
/// Every ``NSUbiquitousKeyValueStore`` on one backend object in a process shares one device
/// (see ``CloudDeviceRegistry``).
///
/// - The copy is loaded from the backend when the device is created, before any write can be
///   saved: a new device pulls before it pushes, so it never overwrites cloud values.
/// - A write changes the copy at once, tells observers synchronously, and is saved on ``queue``
///   shortly after (bursts coalesce into one save). A write of the value already stored does
///   nothing, so unchanged values are never saved.
/// - Records from the backend are merged per key by timestamp (the later write wins); observers
///   hear only about keys whose value changed. Merging never saves, so devices do not echo each
///   other's changes.
/// - When the first load fails (an unreadable container, refused credentials), writes are kept
///   back until the container can be read — the load is tried again as a failed save is, and
///   by every save; that first successful read is reported as an initial sync.
/// - A save that fails (the backend unreachable, its quorum lost) is tried again by itself after
///   ``firstRetryDelay``, then after twice the previous delay up to ``maximumRetryDelay``, until
///   one succeeds: a write made while the servers were away reaches them when they are back,
///   without another write or `synchronize()`. A NATS device whose quorum came back kept three
///   writes pending for more than 60 s without it.
final class CloudDevice: ObservedStoreState, @unchecked Sendable {
  // Sendable: its state, guarded by `lock`, holds property-list values (`Any`), which a
  // `Mutex` cannot hand out.
  typealias Handler = @Sendable (CloudChange) -> Void

  let backend: any CloudBackend
  /// Serial queue for saves and `synchronize()`.
  let queue: DispatchQueue
  static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

  let lock = NSLock()
  // Guarded by `lock`, which already excludes: the fields a write reads and changes skip the
  // runtime's exclusivity bookkeeping (six accesses were a twentieth of a cloud write).
  /// The copy, with the writes not yet saved.
  @exclusivity(unchecked) private var copy: CloudLocalCopy
  /// Key → why the container's record of it was refused (its bytes, or a far-future
  /// timestamp), until a valid record of the key arrives.
  private var refused: [PropertyListKey: String] = [:]
  @exclusivity(unchecked) private var clock: HybridLogicalClock
  private var hasSynced: Bool
  @exclusivity(unchecked) private var saveScheduled = false
  private var retryScheduled = false
  private var retryDelay = CloudDevice.firstRetryDelay
  @exclusivity(unchecked) var observers = ObserverList<CloudChange>()
  private var latestError: (any Error)?
  // Set once, after the first load.
  private var subscription: ObservationToken?

  /// The delay before a failed save is first tried again: 1 s.
  static let firstRetryDelay: TimeInterval = 1
  /// The longest delay between two tries of a failed save: 10 s, so writes reach servers that
  /// come back within about 10 s (one request per 10 s while they are away).
  static let maximumRetryDelay: TimeInterval = 10

  /// The longest a new device of a ``CloudLocalFirstBackend`` waits for its first load before
  /// it answers reads from the backend's local copy: 0.5 s, so that launching while no server
  /// answers (a load waits for the request timeout, several seconds) never blocks the first
  /// read of local values on the network.
  static let firstLoadWait: TimeInterval = 0.5

  /// Loads the backend's records and subscribes to its changes. A ``CloudLocalFirstBackend``
  /// whose load takes longer than ``firstLoadWait`` starts from its local copy instead; its load
  /// goes on in the background and is merged as the initial sync, and writes wait for it.
  init(backend: any CloudBackend) {
    self.backend = backend
    let device = "\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
    clock = HybridLogicalClock(device: device)
    queue = DispatchQueue(label: "ObservableDefaultsCore.cloud.device-" + device)
    let firstLoad = FirstLoad(backend, on: queue)
    switch firstLoad.result(within: Self.firstLoadWait) {
    case .success(let batch)?:
      let (records, refusals) = Self.admitted(batch)
      copy = CloudLocalCopy(records: records)
      refused = refusals
      for record in records.values {
        clock.observe(record.timestamp)
      }
      hasSynced = true
      tagQueue()
      subscribe(from: batch.cursor)
    case .failure(let error)?:
      copy = CloudLocalCopy()
      hasSynced = false
      latestError = error
      Self.report(error)
      tagQueue()
      subscribe(from: nil)
      scheduleRetry()
    case nil:
      let local = (backend as? any CloudLocalFirstBackend)?.localBatch().records ?? [:]
      copy = CloudLocalCopy(records: local)
      for record in local.values { clock.observe(record.timestamp) }
      hasSynced = false
      tagQueue()
      // Runs after the load, on the same serial queue.
      queue.async { [weak self] in self?.finishFirstLoad(firstLoad) }
    }
  }

  /// Merges a first load that outlasted ``firstLoadWait`` (as the initial sync) and subscribes
  /// after it; on failure, subscribes from the start, as a device whose first load failed.
  private func finishFirstLoad(_ firstLoad: FirstLoad) {
    switch firstLoad.finished {
    case .success(let batch):
      merge(batch, reason: NSUbiquitousKeyValueStoreInitialSyncChange)
      subscribe(from: batch.cursor)
    case .failure(let error):
      lock.withLock { latestError = error }
      Self.report(error)
      subscribe(from: nil)
      scheduleRetry()
    }
  }

  private func subscribe(from cursor: CloudCursor?) {
    let token = backend.subscribe(from: cursor) { [weak self] event in self?.receive(event) }
    lock.withLock { subscription = token }
  }

  // MARK: Reading

  func value(forKey key: PropertyListKey) -> Any? {
    lock.withLock { copy.value(forKey: key) }
  }

  func allValues() -> [PropertyListKey: Any] {
    lock.withLock { copy.values }
  }

  /// Why the container's record of `key` was refused, or nil: the device keeps its own value of
  /// a key whose record is not a valid record or is stamped far in the future.
  func refusal(forKey key: PropertyListKey) -> String? {
    lock.withLock { refused[key] }
  }

  /// The last failure to load or save; nil after the next success.
  var lastError: (any Error)? {
    lock.withLock { latestError }
  }

  /// How many writes this device holds that no save has taken yet: those not handed to the
  /// backend, those in a save that is running, and those a failed save gave back. (A backend
  /// counts only what it holds beyond a running save, such as etcd's journal.)
  var pendingWriteCount: Int {
    lock.withLock { copy.pendingCount }
  }

  // MARK: Writing

  /// Stores `value` (canonical; nil removes) under `key` unless it is already stored.
  ///
  /// - Parameters:
  ///   - excluded: An observer id not to tell.
  /// - Throws: ``CloudStoreError`` when a ``CloudQuota`` limit would be exceeded; observers are
  ///   then told with the quota-violation reason and nothing changes.
  func write(_ value: consuming Any?, forKey key: PropertyListKey, excluding excluded: UInt64?)
    throws
  {
    lock.lock()
    let changed: Bool
    do {
      changed = try copy.write(value, forKey: key, clock: &clock)
    } catch {
      throw refuse(key, error)
    }
    guard changed else { return lock.unlock() }
    didWrite(CloudChange(key: key), excluding: excluded)
  }

  /// Stores several values (canonical; nil removes) together: the ones that change get
  /// timestamps of one moment and become pending under one lock, so they are saved in the same
  /// backend save. Removals are checked against the quota first, so a renamed key fits where
  /// its old key was.
  ///
  /// - Throws: ``CloudStoreError`` when a ``CloudQuota`` limit would be exceeded; observers are
  ///   then told with the quota-violation reason and nothing changes.
  func write(_ values: [PropertyListKey: Any?], excluding excluded: UInt64?) throws {
    let ordered = values.sorted {
      ($0.value == nil ? 0 : 1, $0.key) < ($1.value == nil ? 0 : 1, $1.key)
    }
    var written: [(key: PropertyListKey, previous: CloudCopyEntry?)] = []
    lock.lock()
    for (key, value) in ordered {
      let previous = copy.entry(forKey: key)
      do {
        guard try copy.write(value, forKey: key, clock: &clock) else { continue }
      } catch {
        for (key, previous) in written { copy.restore(previous, forKey: key) }
        throw refuse(key, error)
      }
      written.append((key, previous))
    }
    guard !written.isEmpty else { return lock.unlock() }
    didWrite(CloudChange(keys: written.map(\.key), reason: nil), excluding: excluded)
  }

  /// After a write that changed the copy, under ``lock``: schedules a save (unless one is),
  /// releases the lock and tells the observers but `excluded`.
  private func didWrite(_ change: CloudChange, excluding excluded: UInt64?) {
    let mustSchedule = !saveScheduled
    saveScheduled = true
    let targets = observers
    lock.unlock()
    if mustSchedule { queue.async { self.save() } }
    targets.notify(change, excluding: excluded)
  }

  /// After a refused write of `key`, under ``lock``: releases the lock and tells the observers
  /// with the quota-violation reason.
  ///
  /// - Returns: `error`, for the writer to throw.
  private func refuse(_ key: PropertyListKey, _ error: any Error) -> any Error {
    let targets = observers
    lock.unlock()
    targets.notify(CloudChange(key: key, reason: NSUbiquitousKeyValueStoreQuotaViolationChange))
    return error
  }

  /// The last save, at exit or when the device goes: saves every pending write once more,
  /// before the first sync too (the backend keeps the later write of each key, or keeps the
  /// writes for the next launch), then reports what is still unsent (see ``CloudUnsentWrites``).
  ///
  /// - Parameter atExit: Whether the program exits (false: the device goes with its store).
  func saveForExit(atExit: Bool) {
    let records = lock.withLock { copy.pendingRecords }
    var unsent = 0
    if !records.isEmpty {
      do {
        try backend.save(records)
        clearPending(records, error: nil)
      } catch is CloudQuotaViolation {
        // Refused by the container: told to observers as the save was.
      } catch {
        unsent = records.count
      }
    }
    CloudUnsentWrites.report(unsent, on: backend, atExit: atExit)
  }

  /// Waits until the first load finished (it runs first on ``queue``).
  func waitForFirstLoad() {
    onQueue {}
  }

  /// Saves pending writes now and waits.
  func flush() {
    onQueue { _ = save() }
  }

  /// Saves pending writes, loads the container and merges it, and saves what the merge let
  /// through (writes kept back before the first sync).
  ///
  /// - Returns: false when the save or the load failed (see ``lastError``).
  func synchronize() -> Bool {
    onQueue {
      var succeeded = save()
      do {
        merge(try backend.load(), reason: NSUbiquitousKeyValueStoreServerChange)
      } catch {
        lock.withLock { latestError = error }
        succeeded = false
      }
      return save() && succeeded
    }
  }

  // MARK: Syncing (on `queue`, or on the backend's queue for events)

  /// Saves every pending write in one backend save (nothing before the first sync). On failure
  /// the writes stay pending, retried by the next write, `synchronize()` or the retry this
  /// schedules (see ``scheduleRetry()``). Writes the container refused for its quota are taken
  /// back (see ``takeBack(_:of:)``).
  ///
  /// - Returns: false when the save failed.
  @discardableResult
  private func save() -> Bool {
    guard loadIfNeverSynced() else { return false }
    let records: [PropertyListKey: CloudRecord] = lock.withLock {
      saveScheduled = false
      return hasSynced ? copy.pendingRecords : [:]
    }
    guard !records.isEmpty else { return true }
    do {
      try backend.save(records)
      clearPending(records, error: nil)
      return true
    } catch let violation as CloudQuotaViolation {
      clearPending(records, error: violation)
      takeBack(violation.keys, of: records)
      return true
    } catch {
      lock.withLock { latestError = error }
      Self.report(error)
      scheduleRetry()
      return false
    }
  }

  /// Before the first successful load (it failed: the container unreadable, the credentials
  /// refused), loads the container and merges it as the initial sync, so the writes kept back
  /// go out; on failure schedules a retry (see ``scheduleRetry()``), so a device whose servers
  /// refused it at launch syncs once they accept it, without another write.
  ///
  /// - Returns: false when the load failed.
  private func loadIfNeverSynced() -> Bool {
    guard !lock.withLock({ hasSynced }) else { return true }
    do {
      merge(try backend.load(), reason: NSUbiquitousKeyValueStoreInitialSyncChange)
      return true
    } catch {
      lock.withLock { latestError = error }
      scheduleRetry()
      return false
    }
  }

  /// Schedules one retry of the pending writes on ``queue`` after ``retryDelay`` (unless one is
  /// scheduled), and doubles the delay for the next one.
  private func scheduleRetry() {
    let delay: TimeInterval? = lock.withLock {
      guard !retryScheduled else { return nil }
      retryScheduled = true
      defer { retryDelay = min(retryDelay * 2, Self.maximumRetryDelay) }
      return retryDelay
    }
    guard let delay else { return }
    queue.asyncAfter(deadline: .now() + delay) { [weak self] in
      guard let self else { return }
      lock.withLock { retryScheduled = false }
      save()
    }
  }

  /// Forgets the pending writes of `records` that were not written again since.
  private func clearPending(_ records: [PropertyListKey: CloudRecord], error: (any Error)?) {
    lock.withLock {
      retryDelay = Self.firstRetryDelay
      copy.markSaved(records)
      latestError = error
    }
  }

  /// Gives the keys the container refused (of the saved `records`) the container's values back
  /// and tells observers with the quota-violation reason, naming them.
  private func takeBack(_ keys: [PropertyListKey], of records: [PropertyListKey: CloudRecord]) {
    let stored = (try? backend.load().records) ?? [:]
    let unknown = CloudTimestamp(time: 0, counter: 0, device: "")
    lock.lock()
    for key in keys where copy.record(forKey: key)?.timestamp == records[key]?.timestamp {
      copy.apply(stored[key] ?? CloudRecord(value: nil, timestamp: unknown), forKey: key)
    }
    let targets = observers
    lock.unlock()
    targets.notify(
      CloudChange(keys: Array(Set(keys)), reason: NSUbiquitousKeyValueStoreQuotaViolationChange))
  }

  private func receive(_ event: CloudBackendEvent) {
    switch event {
    case .changed(let batch):
      merge(batch, reason: NSUbiquitousKeyValueStoreServerChange)
    case .accountChanged(_, let batch):
      replace(with: batch)
    }
  }

  /// Takes each record newer than this device's, tells observers which values changed (as an
  /// initial sync when this is the first successful read) and schedules the writes kept back.
  private func merge(_ batch: CloudRecordBatch, reason: Int) {
    let (records, refusals) = Self.admitted(batch)
    var changedKeys: [PropertyListKey] = []
    var devices: [PropertyListKey: String] = [:]
    lock.lock()
    for key in records.keys { refused[key] = nil }
    refused.merge(refusals) { _, new in new }
    let reason = hasSynced ? reason : NSUbiquitousKeyValueStoreInitialSyncChange
    for (key, record) in records {
      clock.observe(record.timestamp)
      if let local = copy.record(forKey: key), local.timestamp >= record.timestamp { continue }
      if !propertyListValuesEqual(copy.value(forKey: key), record.value) {
        changedKeys.append(key)
        devices[key] = record.timestamp.device
      }
      copy.apply(record, forKey: key)
    }
    // Writes kept back (before the first sync, or while the container was unreadable) go out now.
    let mustSave = copy.pendingCount > 0 && !saveScheduled
    hasSynced = true
    if mustSave { saveScheduled = true }
    let targets = changedKeys.isEmpty ? .none : observers
    lock.unlock()
    if mustSave { queue.async { self.save() } }
    targets.notify(CloudChange(keys: changedKeys, reason: reason, devices: devices))
  }

  /// Replaces the copy with another account's records, dropping writes not yet saved (Apple:
  /// "the system removes any previous iCloud data and replaces it with data from the new
  /// account"), and tells observers which values changed.
  private func replace(with batch: CloudRecordBatch) {
    let (records, refusals) = Self.admitted(batch)
    lock.lock()
    let old = copy.values
    copy = CloudLocalCopy(records: records)
    refused = refusals
    for record in records.values { clock.observe(record.timestamp) }
    hasSynced = true
    let new = copy.values
    let changedKeys = Set(old.keys).union(new.keys).filter {
      !propertyListValuesEqual(old[$0], new[$0])
    }
    let targets = observers
    lock.unlock()
    targets.notify(
      CloudChange(
        keys: Array(changedKeys), reason: NSUbiquitousKeyValueStoreAccountChange,
        devices: records.filter { changedKeys.contains($0.key) }.mapValues(\.timestamp.device)))
  }

  /// The records of `batch` without the ones stamped more than
  /// ``HybridLogicalClock/maximumLead`` ahead of this machine's clock: such a record is not taken
  /// (its key keeps this device's value) and does not move the clock; the refusals go to
  /// ``RefusedRecords``. Also returns every refused key (the batch's and these) with the reason.
  private static func admitted(_ batch: CloudRecordBatch) -> (
    records: [PropertyListKey: CloudRecord], refused: [PropertyListKey: String]
  ) {
    let records = batch.records
    let wall = HybridLogicalClock.now()
    let refused = records.filter { !HybridLogicalClock.admits($0.value.timestamp, wall: wall) }
    guard !refused.isEmpty else { return (records, batch.refused) }
    let reason = { (record: CloudRecord) in
      "its timestamp \(record.timestamp) is more than 24 hours ahead of this device's clock"
    }
    RefusedRecords.report(
      refused.sorted { $0.key < $1.key }.map { key, record in
        RefusedRecords.Refusal(
          location: "the record of \(key)", bytes: CloudRecordCodec.header(record.timestamp),
          reason: reason(record))
      })
    return (
      records.filter { refused[$0.key] == nil },
      batch.refused.merging(refused.mapValues(reason)) { _, new in new }
    )
  }

  private static func report(_ error: any Error) {
    Diagnostics.report("NSUbiquitousKeyValueStore", "\(error)")
  }

  deinit {
    lock.withLock { subscription }?.cancel()
    saveForExit(atExit: false)
    CloudDeviceRegistry.shared.remove(self)
  }
}

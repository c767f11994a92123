/// A device's copy of a container: one table of every key's record (removals included), the
/// bytes it counts for and whether it is a write waiting for a save, plus the running totals
/// that ``CloudQuota`` limits.
///
/// A write looks its key up once (``write(_:forKey:clock:)``): the equality check, the quota
/// check, the store and the pending mark all work on the entry found.
struct CloudLocalCopy {
  private var entries: [PropertyListKey: CloudCopyEntry] = [:]
  /// The quota's totals, kept by every change of an entry.
  private(set) var totals = CloudQuotaTotals()
  /// The keys whose entry ``CloudCopyEntry/isPending``, for saves.
  private var pendingKeys: Set<PropertyListKey> = []

  /// A copy of a container's records, none pending.
  init(records: [PropertyListKey: CloudRecord] = [:]) {
    for (key, record) in records {
      apply(record, forKey: key)
    }
  }

  /// The record of `key`, or nil when the copy holds none.
  func record(forKey key: PropertyListKey) -> CloudRecord? {
    entries[key]?.record
  }

  /// The value of `key`, or nil when it has none.
  func value(forKey key: PropertyListKey) -> Any? {
    entries[key]?.record.value
  }

  /// Every key with a value.
  var values: [PropertyListKey: Any] {
    entries.compactMapValues(\.record.value)
  }

  /// The entry of `key`, to ``restore(_:forKey:)`` it after a later write.
  func entry(forKey key: PropertyListKey) -> CloudCopyEntry? {
    entries[key]
  }

  /// How many keys hold a write that no successful save has taken yet.
  var pendingCount: Int {
    pendingKeys.count
  }

  /// The writes that no successful save has taken yet, key → record.
  var pendingRecords: [PropertyListKey: CloudRecord] {
    var records = [PropertyListKey: CloudRecord](minimumCapacity: pendingKeys.count)
    for key in pendingKeys {
      records[key] = entries[key]?.record
    }
    return records
  }

  /// A write of this device: stores `value` under `key`, stamped by `clock`, as a pending write,
  /// unless the key already holds that value (then nothing changes and the clock does not
  /// move).
  ///
  /// - Parameters:
  ///   - value: A canonical property-list value, or nil to remove the key.
  ///   - key: The key.
  ///   - clock: The device's clock. (Passed in, not called through a closure: the closure's
  ///     capture of the device was retained and released on every write.)
  /// - Returns: Whether the copy changed.
  /// - Throws: ``CloudStoreError`` naming the ``CloudQuota`` limit that would be exceeded;
  ///   nothing changes.
  mutating func write(
    _ value: consuming Any?, forKey key: PropertyListKey, clock: inout HybridLogicalClock
  ) throws
    -> Bool
  {
    if let index = entries.index(forKey: key) {
      return try entries.values[index].write(
        value, forKey: key, totals: &totals, pendingKeys: &pendingKeys, clock: &clock)
    }
    var entry = CloudCopyEntry.absent
    guard
      try entry.write(value, forKey: key, totals: &totals, pendingKeys: &pendingKeys, clock: &clock)
    else { return false }
    entries[key] = entry
    return true
  }

  /// Takes `record` from the container for `key`: it replaces the key's entry, and a write of
  /// the key still pending is dropped (the container's record won).
  mutating func apply(_ record: CloudRecord, forKey key: PropertyListKey) {
    let entry = CloudCopyEntry(record, forKey: key)
    let old = entries.updateValue(entry, forKey: key)
    totals = totals.replacing(old?.bytes, with: entry.bytes)
    if old?.isPending == true { pendingKeys.remove(key) }
  }

  /// Puts back the entry `key` had before a write (as ``entry(forKey:)`` gave it; nil: none),
  /// its totals and pending mark included.
  mutating func restore(_ entry: CloudCopyEntry?, forKey key: PropertyListKey) {
    let current =
      if let entry { entries.updateValue(entry, forKey: key) } else {
        entries.removeValue(forKey: key)
      }
    totals = totals.replacing(current?.bytes, with: entry?.bytes)
    if current?.isPending == true, entry?.isPending != true { pendingKeys.remove(key) }
  }

  /// Marks the writes of `records` as saved, except those written again since.
  ///
  /// - Parameter records: Records a save took, key → record.
  mutating func markSaved(_ records: [PropertyListKey: CloudRecord]) {
    for (key, record) in records {
      guard let index = entries.index(forKey: key), entries.values[index].isPending,
        entries.values[index].record.timestamp == record.timestamp
      else { continue }
      entries.values[index].isPending = false
      pendingKeys.remove(key)
    }
  }
}

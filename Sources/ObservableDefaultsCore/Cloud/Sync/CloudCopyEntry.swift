/// One key of a device's copy (see ``CloudLocalCopy``): its record, what it counts for in the
/// quota, and whether it waits for a save — all found with one lookup of the key.
struct CloudCopyEntry {
  /// The key's value (nil: removed) and timestamp.
  var record: CloudRecord
  /// ``CloudQuota/entryBytes(key:value:)`` of the record's value; nil for a removal.
  var bytes: Int?
  /// Whether the record is a write of this device that no successful save has taken yet.
  var isPending: Bool

  /// A key the copy does not hold yet: no value, and a record no other outranks.
  static let absent = CloudCopyEntry(
    record: CloudRecord(value: nil, timestamp: CloudTimestamp(time: 0, counter: 0, device: "")),
    bytes: nil, isPending: false)

  /// An entry of a record from the container (not pending).
  ///
  /// - Parameters:
  ///   - record: The record.
  ///   - key: The record's key, counted in its bytes.
  init(_ record: CloudRecord, forKey key: PropertyListKey) {
    self.init(
      record: record, bytes: record.value.map { CloudQuota.entryBytes(key: key, value: $0) },
      isPending: false)
  }

  private init(record: CloudRecord, bytes: Int?, isPending: Bool) {
    self.record = record
    self.bytes = bytes
    self.isPending = isPending
  }

  /// Makes `value` the pending write of `key` stamped by `clock`, unless it is the value already
  /// held (then nothing changes and the clock does not move), keeping `totals` and `pendingKeys`.
  ///
  /// - Parameters:
  ///   - value: A canonical property-list value, or nil for a removal.
  ///   - key: This entry's key.
  ///   - totals: The copy's totals; a value is checked against them (a removal always fits).
  ///   - pendingKeys: The copy's pending keys; `key` joins them.
  ///   - clock: The device's clock, which stamps the write.
  /// - Returns: Whether the entry changed.
  /// - Throws: ``CloudStoreError`` naming the ``CloudQuota`` limit the value would exceed;
  ///   nothing changes.
  mutating func write(
    _ value: consuming Any?, forKey key: PropertyListKey, totals: inout CloudQuotaTotals,
    pendingKeys: inout Set<PropertyListKey>, clock: inout HybridLogicalClock
  ) throws -> Bool {
    // The new value unwrapped once for the comparison and its size, then moved into the record:
    // each copy of an existential was a fiftieth of a cloud write.
    switch value {
    case .some(let new):
      if let old = record.value, valuesEqual(old, new) { return false }
      let newBytes = CloudQuota.entryBytes(key: key, value: new)
      try replace(
        with: new, bytes: newBytes, forKey: key, totals: &totals, pendingKeys: &pendingKeys,
        clock: &clock)
    case .none:
      if record.value == nil { return false }
      try replace(
        with: nil, bytes: nil, forKey: key, totals: &totals, pendingKeys: &pendingKeys,
        clock: &clock)
    }
    return true
  }

  /// The change of ``write(_:forKey:totals:pendingKeys:clock:)`` once the value is known to
  /// differ: `value`, of `newBytes` (nil: a removal), checked against `totals` and stored.
  private mutating func replace(
    with value: consuming Any?, bytes newBytes: Int?, forKey key: PropertyListKey,
    totals: inout CloudQuotaTotals, pendingKeys: inout Set<PropertyListKey>,
    clock: inout HybridLogicalClock
  ) throws {
    let newTotals = totals.replacing(bytes, with: newBytes)
    if newBytes != nil { try newTotals.check(key: key.string) }
    totals = newTotals
    record = CloudRecord(value: value, timestamp: clock.next())
    bytes = newBytes
    if !isPending {
      isPending = true
      pendingKeys.insert(key)
    }
  }
}

/// A device's copy of a container: every record (removals included) and the running totals that
/// ``CloudQuota`` limits.
struct CloudLocalCopy {
  private(set) var records: [String: CloudRecord] = [:]
  /// Keys with a value (not removed).
  private(set) var keyCount = 0
  /// ``CloudQuota/entryBytes(key:value:)`` summed over the keys with a value.
  private(set) var totalBytes = 0

  init(records: [String: CloudRecord] = [:]) {
    for (key, record) in records {
      apply(record, forKey: key)
    }
  }

  /// The value of `key`, or nil when it has none.
  func value(forKey key: String) -> Any? {
    records[key]?.value
  }

  /// Every key with a value.
  var values: [String: Any] {
    records.compactMapValues(\.value)
  }

  /// Stores `record` for `key`, keeping the totals.
  ///
  /// - Returns: The record it replaces.
  @discardableResult
  mutating func apply(_ record: CloudRecord, forKey key: String) -> CloudRecord? {
    let old = records.updateValue(record, forKey: key)
    (keyCount, totalBytes) = totals(replacing: old, with: record, forKey: key)
    return old
  }

  /// Stores `record` for `key` (as ``apply(_:forKey:)``) unless its value would take the copy
  /// past a ``CloudQuota`` limit. One lookup of `key` serves the check and the store.
  ///
  /// - Returns: The record it replaces.
  /// - Throws: ``CloudStoreError`` naming the limit that would be exceeded; nothing changes.
  mutating func applyWithinQuota(_ record: CloudRecord, forKey key: String) throws -> CloudRecord? {
    let index = records.index(forKey: key)
    let old = index.map { records.values[$0] }
    let (count, bytes) = totals(replacing: old, with: record, forKey: key)
    if record.value != nil { try Self.check(key: key, count: count, bytes: bytes) }
    if let index { records.values[index] = record } else { records[key] = record }
    (keyCount, totalBytes) = (count, bytes)
    return old
  }

  /// The key count and total bytes once `new` replaces `old` as the record of `key`.
  private func totals(replacing old: CloudRecord?, with new: CloudRecord, forKey key: String)
    -> (count: Int, bytes: Int)
  {
    var (count, bytes) = (keyCount, totalBytes)
    if let value = old?.value {
      count -= 1
      bytes -= CloudQuota.entryBytes(key: key, value: value)
    }
    if let value = new.value {
      count += 1
      bytes += CloudQuota.entryBytes(key: key, value: value)
    }
    return (count, bytes)
  }

  /// Checks a key and the totals a value under it would make against ``CloudQuota``.
  private static func check(key: String, count: Int, bytes: Int) throws {
    let keyBytes = key.utf8.count
    guard keyBytes <= CloudQuota.maximumKeyBytes else {
      throw CloudStoreError(
        key: key, kind: .keyTooLong(bytes: keyBytes, limit: CloudQuota.maximumKeyBytes))
    }
    guard count <= CloudQuota.maximumKeyCount else {
      throw CloudStoreError(
        key: key, kind: .tooManyKeys(count: count, limit: CloudQuota.maximumKeyCount))
    }
    guard bytes <= CloudQuota.maximumTotalBytes else {
      throw CloudStoreError(
        key: key, kind: .totalSizeExceeded(bytes: bytes, limit: CloudQuota.maximumTotalBytes))
    }
  }
}

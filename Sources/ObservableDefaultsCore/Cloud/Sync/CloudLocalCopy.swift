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
  mutating func apply(_ record: CloudRecord, forKey key: String) {
    if let old = records[key]?.value {
      keyCount -= 1
      totalBytes -= CloudQuota.entryBytes(key: key, value: old)
    }
    if let new = record.value {
      keyCount += 1
      totalBytes += CloudQuota.entryBytes(key: key, value: new)
    }
    records[key] = record
  }

  /// Checks that storing `value` (nil: removing) under `key` stays within ``CloudQuota``.
  ///
  /// - Throws: ``CloudStoreError`` naming the limit that would be exceeded.
  func checkQuota(setting value: Any?, forKey key: String) throws {
    guard let value else { return }
    let keyBytes = key.utf8.count
    guard keyBytes <= CloudQuota.maximumKeyBytes else {
      throw CloudStoreError(
        key: key, kind: .keyTooLong(bytes: keyBytes, limit: CloudQuota.maximumKeyBytes))
    }
    let old = records[key]?.value
    let count = keyCount + (old == nil ? 1 : 0)
    guard count <= CloudQuota.maximumKeyCount else {
      throw CloudStoreError(
        key: key, kind: .tooManyKeys(count: count, limit: CloudQuota.maximumKeyCount))
    }
    let bytes =
      totalBytes - (old.map { CloudQuota.entryBytes(key: key, value: $0) } ?? 0)
      + CloudQuota.entryBytes(key: key, value: value)
    guard bytes <= CloudQuota.maximumTotalBytes else {
      throw CloudStoreError(
        key: key, kind: .totalSizeExceeded(bytes: bytes, limit: CloudQuota.maximumTotalBytes))
    }
  }
}

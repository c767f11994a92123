/// The totals that ``CloudQuota`` limits, over the keys of a device's copy that have a value:
/// kept as each write changes them, so a write counts only its own key and value.
struct CloudQuotaTotals {
  /// Keys with a value.
  private(set) var keyCount = 0
  /// ``CloudQuota/entryBytes(key:value:)`` summed over the keys with a value.
  private(set) var bytes = 0

  /// The totals once an entry of `old` bytes becomes one of `new` bytes.
  ///
  /// - Parameters:
  ///   - old: The entry's bytes before, or nil when the key had no value.
  ///   - new: The entry's bytes after, or nil when the key has no value.
  func replacing(_ old: Int?, with new: Int?) -> CloudQuotaTotals {
    var totals = self
    if let old {
      totals.keyCount -= 1
      totals.bytes -= old
    }
    if let new {
      totals.keyCount += 1
      totals.bytes += new
    }
    return totals
  }

  /// Checks `key`, and these totals once a value is stored under it, against ``CloudQuota``.
  ///
  /// - Throws: ``CloudStoreError`` naming the first limit exceeded: the key's length, the key
  ///   count, then the total bytes.
  func check(key: String) throws {
    let keyBytes = key.utf8.count
    guard keyBytes <= CloudQuota.maximumKeyBytes else {
      throw CloudStoreError(
        key: key, kind: .keyTooLong(bytes: keyBytes, limit: CloudQuota.maximumKeyBytes))
    }
    guard keyCount <= CloudQuota.maximumKeyCount else {
      throw CloudStoreError(
        key: key, kind: .tooManyKeys(count: keyCount, limit: CloudQuota.maximumKeyCount))
    }
    guard bytes <= CloudQuota.maximumTotalBytes else {
      throw CloudStoreError(
        key: key, kind: .totalSizeExceeded(bytes: bytes, limit: CloudQuota.maximumTotalBytes))
    }
  }
}

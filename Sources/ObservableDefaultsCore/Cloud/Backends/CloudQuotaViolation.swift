/// Records a container refused because storing them would exceed ``CloudQuota`` across all
/// devices; the other records of the save were stored.
///
/// Thrown by ``CloudBackend/save(_:)``. The store then takes the refused keys back to the
/// container's values and tells its observers with
/// ``NSUbiquitousKeyValueStoreQuotaViolationChange`` naming them — what iCloud does when the
/// server refuses a device's write ("if you attempt to write data that exceeds these quotas, the
/// write attempt fails and no change is made").
public struct CloudQuotaViolation: Error, Equatable, CustomStringConvertible {
  /// The refused keys, sorted by their Unicode scalars (exact keys: two that differ only in
  /// Unicode normalization are two elements).
  public let keys: [PropertyListKey]

  /// Creates the error for the refused `keys` (sorted).
  public init(keys: [PropertyListKey]) {
    self.keys = keys
  }

  /// E.g. `the container is full: 2 values were refused (k1, k2)`.
  public var description: String {
    "the container is full: \(keys.count) value\(keys.count == 1 ? " was" : "s were") refused ("
      + keys.prefix(10).map(\.string).joined(separator: ", ") + (keys.count > 10 ? ", …" : "") + ")"
  }
}

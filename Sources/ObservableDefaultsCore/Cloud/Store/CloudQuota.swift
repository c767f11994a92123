import Foundation

/// The limits of Apple's iCloud key-value store, which ``NSUbiquitousKeyValueStore`` enforces by
/// bytes so that code that fits here also fits on Apple platforms.
///
/// From Apple's documentation of `NSUbiquitousKeyValueStore` and
/// `NSUbiquitousKeyValueStoreQuotaViolationChange`
/// (https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestorequotaviolationchange):
/// "no more than 1024 keys", "the total amount of available storage space for all values is 1
/// megabyte", "the maximum size for a single value is 1 megabyte", and "if you attempt to write
/// data that exceeds these quotas, the write attempt fails and no change is made"; and from the
/// class reference (https://developer.apple.com/reference/foundation/nsubiquitouskeyvaluestore):
/// "the maximum length for key strings … is 64 bytes using UTF8 encoding".
///
/// How sizes are counted here (Apple does not publish its encoding): a key counts its UTF-8
/// bytes; a string its UTF-8 bytes; data its bytes; a number or date 8 bytes; a Boolean 1 byte;
/// an array the sum of its elements; a dictionary the sum of its keys' UTF-8 bytes and its values.
/// A key's entry is its key plus its value, and the total is the sum of all entries.
public enum CloudQuota {
  /// At most this many keys (1,024).
  public static let maximumKeyCount = 1024
  /// At most this many bytes in all keys and values together (1 MB = 1,048,576 bytes).
  public static let maximumTotalBytes = 1_048_576
  /// At most this many bytes in a key's UTF-8 encoding (64).
  public static let maximumKeyBytes = 64

  /// The bytes `key` and `value` count for.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - value: A canonical property-list value.
  /// - Returns: UTF-8 bytes of the key plus the value's size (see ``CloudQuota``).
  package static func entryBytes(key: String, value: Any) -> Int {
    key.utf8.count + valueBytes(value)
  }

  /// The bytes an exact key and `value` count for: those of the key's text.
  package static func entryBytes(key: PropertyListKey, value: Any) -> Int {
    entryBytes(key: key.string, value: value)
  }

  /// Why a record of `key` with `value` (nil: a removal) could never have been stored within
  /// these limits, whatever else the container holds: its key is longer than
  /// ``maximumKeyBytes``, or its entry alone takes more than ``maximumTotalBytes``. Nil when
  /// it fits. Such a record was written by a client that does not keep the quota; a device
  /// refuses it on its way in (as a record it cannot decode), so that it neither counts against
  /// the quota of the device's own writes nor reaches the device's copy.
  package static func excess(key: String, value: Any?) -> String? {
    let keyBytes = key.utf8.count
    if keyBytes > maximumKeyBytes {
      return "its key takes \(keyBytes) bytes, more than the quota's \(maximumKeyBytes)"
    }
    guard let value else { return nil }
    let bytes = entryBytes(key: key, value: value)
    guard bytes > maximumTotalBytes else { return nil }
    return "its key and value take \(bytes) bytes, more than the quota's \(maximumTotalBytes)"
  }

  /// The bytes a canonical property-list value counts for.
  static func valueBytes(_ value: Any) -> Int {
    // Metatype comparisons for the scalars, read without a cast: the failing casts to a
    // collection were a quarter of an `@ObservableCloud` write in the cloud-write profile.
    let kind = type(of: value)
    if kind == String.self {
      return ObservableDefaultsCore.value(value, as: String.self).utf8.count
    }
    if kind == Data.self { return ObservableDefaultsCore.value(value, as: Data.self).count }
    if kind == Bool.self { return 1 }
    if kind == Int.self || kind == Double.self || kind == Date.self || kind == UInt64.self {
      return 8
    }
    switch value {
    case let array as [Any]: return array.reduce(0) { $0 + valueBytes($1) }
    case let dictionary as [String: Any]:
      return dictionary.reduce(0) { $0 + entryBytes(key: $1.key, value: $1.value) }
    case let dictionary as [PropertyListKey: Any]:
      return dictionary.reduce(0) { $0 + entryBytes(key: $1.key.string, value: $1.value) }
    default: return 8
    }
  }
}

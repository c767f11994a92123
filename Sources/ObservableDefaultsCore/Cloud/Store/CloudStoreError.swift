/// A write that ``NSUbiquitousKeyValueStore`` refused; nothing was changed.
///
/// Its ``description`` is one line for the developer naming the key, the limit and the sizes,
/// e.g. `NSUbiquitousKeyValueStore refused "volume": 1,025 keys would exceed the limit of 1,024
/// keys (Apple's iCloud key-value store quota); nothing was changed`.
public struct CloudStoreError: Error, CustomStringConvertible, Equatable {
  /// Why the write was refused.
  public enum Kind: Sendable, Equatable {
    /// The key's UTF-8 encoding has `bytes` bytes; at most `limit` are allowed.
    case keyTooLong(bytes: Int, limit: Int)
    /// The store would hold `count` keys; at most `limit` are allowed.
    case tooManyKeys(count: Int, limit: Int)
    /// Keys and values would take `bytes` bytes; at most `limit` are allowed.
    case totalSizeExceeded(bytes: Int, limit: Int)
    /// The value, of the named type, is not a property-list value.
    case invalidValue(type: String)

    /// Whether this is one of Apple's limits (reported as a quota violation).
    public var isQuotaViolation: Bool {
      if case .invalidValue = self { return false }
      return true
    }
  }

  /// The key written.
  public let key: String
  /// Why the write was refused.
  public let kind: Kind

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - key: The key written.
  ///   - kind: Why the write was refused.
  public init(key: String, kind: Kind) {
    self.key = key
    self.kind = kind
  }

  /// One line for the developer: the key, the limit and the sizes.
  public var description: String {
    let reason: String
    switch kind {
    case .keyTooLong(let bytes, let limit):
      reason =
        "the key is \(grouped(bytes)) bytes of UTF-8, over the limit of \(grouped(limit)) bytes"
    case .tooManyKeys(let count, let limit):
      reason = "\(grouped(count)) keys would exceed the limit of \(grouped(limit)) keys"
    case .totalSizeExceeded(let bytes, let limit):
      reason =
        "keys and values would take \(grouped(bytes)) bytes, over the limit of \(grouped(limit)) bytes"
    case .invalidValue(let type):
      return "NSUbiquitousKeyValueStore refused \"\(key)\": a value of type \(type) is not a "
        + "property-list value; nothing was changed"
    }
    return
      "NSUbiquitousKeyValueStore refused \"\(key)\": \(reason) (Apple's iCloud key-value store "
      + "quota); nothing was changed"
  }

  /// `1048576` as `1,048,576`.
  private func grouped(_ number: Int) -> String {
    let digits = Array(String(number))
    return digits.enumerated().reduce(into: "") { text, pair in
      if pair.offset > 0, (digits.count - pair.offset) % 3 == 0 { text.append(",") }
      text.append(pair.element)
    }
  }
}

/// What changed in a suite: the keys whose value changed, and where the change came from.
public struct DefaultsChange: Sendable, Equatable {
  /// Where a change was made.
  public enum Origin: Sendable, Equatable {
    /// Through a ``PropertyListDefaults`` instance in this process.
    case thisProcess
    /// By another process or by hand, seen in the file.
    case otherProcess
  }

  /// The changed keys: most changes are one write of one key, which needs no set until an
  /// observer asks for ``keys`` (building one was a tenth of a write in the burst benchmark).
  private enum ChangedKeys: Sendable {
    case one(String)
    case several(Set<String>)
  }

  private let changed: ChangedKeys

  /// The keys whose value changed (set, changed or removed).
  public var keys: Set<String> {
    switch changed {
    case .one(let key): [key]
    case .several(let keys): keys
    }
  }

  /// Where the change was made.
  public let origin: Origin

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - keys: The keys whose value changed.
  ///   - origin: Where the change was made.
  public init(keys: Set<String>, origin: Origin) {
    changed = .several(keys)
    self.origin = origin
  }

  /// Creates a change of one key.
  ///
  /// - Parameters:
  ///   - key: The key whose value changed.
  ///   - origin: Where the change was made.
  public init(key: String, origin: Origin) {
    changed = .one(key)
    self.origin = origin
  }

  /// Whether the value of `key` changed; builds no set.
  ///
  /// - Parameter key: A key of the suite.
  /// - Returns: `true` when `key` is one of ``keys``.
  public func contains(_ key: String) -> Bool {
    switch changed {
    case .one(let changedKey): changedKey == key
    case .several(let keys): keys.contains(key)
    }
  }

  /// Two changes are equal when they name the same keys and origin.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.origin == rhs.origin && lhs.keys == rhs.keys
  }
}

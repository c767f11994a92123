/// What changed in a suite: the keys whose value changed, and where the change came from.
public struct DefaultsChange: Sendable, Equatable {
  /// Where a change was made.
  public enum Origin: Sendable, Equatable {
    /// Through a ``PropertyListDefaults`` instance in this process.
    case thisProcess
    /// By another process or by hand, seen in the file.
    case otherProcess
  }

  /// The keys whose value changed (set, changed or removed).
  public let keys: Set<String>
  /// Where the change was made.
  public let origin: Origin

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - keys: The keys whose value changed.
  ///   - origin: Where the change was made.
  public init(keys: Set<String>, origin: Origin) {
    self.keys = keys
    self.origin = origin
  }
}

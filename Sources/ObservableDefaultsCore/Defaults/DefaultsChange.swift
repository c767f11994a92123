/// What changed in a suite: the keys whose value changed, where the change came from
/// (``origin``) and who made it (``writer``).
///
/// Keys are told exactly (their Unicode scalars): a write of `"e\u{301}"` is not a change of
/// `"\u{E9}"`, as in the file. ``keys`` is a `Set<String>`, which holds keys that differ only in
/// Unicode normalization as one; ``exactKeys`` holds each.
public struct DefaultsChange: Sendable, Equatable {
  /// Where a change was made.
  public enum Origin: Sendable, Equatable {
    /// Through a ``PropertyListDefaults`` instance in this process.
    case thisProcess
    /// Outside this process, seen in a file: another process, a hand edit, or an administrator's
    /// system file (``Writer/administrator``).
    case otherProcess
  }

  /// The changed keys: most changes are one write of one key, which needs no set until an
  /// observer asks for ``keys`` (building one was a tenth of a write in the burst benchmark).
  private enum ChangedKeys: Sendable {
    case one(String)
    case several(Set<PropertyListKey>)
  }

  private let changed: ChangedKeys

  /// The keys whose value changed (set, changed or removed), as `String`s: two changed keys
  /// that differ only in Unicode normalization are one element here (see ``exactKeys``).
  public var keys: Set<String> {
    switch changed {
    case .one(let key): [key]
    case .several(let keys): Set(keys.lazy.map(\.string))
    }
  }

  /// The keys whose value changed, each exactly as written (keys that differ only in Unicode
  /// normalization are separate elements).
  public var exactKeys: Set<PropertyListKey> {
    switch changed {
    case .one(let key): [PropertyListKey(key)]
    case .several(let keys): keys
    }
  }

  /// Where the change was made.
  public let origin: Origin

  /// Who made the change, as exactly as the system can tell (see ``Writer``): for
  /// ``Origin/thisProcess`` ``Writer/thisProcess``, ``Writer/reset`` or ``Writer/migration``;
  /// for ``Origin/otherProcess`` another program, an unmarked write, a device, a migration or
  /// ``Writer/unknown`` (or ``Writer/thisProcess`` for this process's write to the file that did
  /// not go through this suite's storage).
  public let writer: Writer

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - keys: The keys whose value changed.
  ///   - origin: Where the change was made.
  ///   - writer: Who made it; by default as much as `origin` says (``Writer/init(_:)``).
  public init(keys: Set<String>, origin: Origin, writer: Writer? = nil) {
    self.init(
      exactKeys: Set(keys.lazy.map { PropertyListKey($0) }), origin: origin, writer: writer)
  }

  /// Creates a change of exact keys.
  ///
  /// - Parameters:
  ///   - exactKeys: The keys whose value changed.
  ///   - origin: Where the change was made.
  ///   - writer: Who made it; by default as much as `origin` says (``Writer/init(_:)``).
  public init(exactKeys: Set<PropertyListKey>, origin: Origin, writer: Writer? = nil) {
    changed = .several(exactKeys)
    self.origin = origin
    self.writer = writer ?? Writer(origin)
  }

  /// Creates a change of one key.
  ///
  /// - Parameters:
  ///   - key: The key whose value changed.
  ///   - origin: Where the change was made.
  ///   - writer: Who made it; by default as much as `origin` says (``Writer/init(_:)``).
  public init(key: String, origin: Origin, writer: Writer? = nil) {
    changed = .one(key)
    self.origin = origin
    self.writer = writer ?? Writer(origin)
  }

  /// Whether the value of exactly `key` (its Unicode scalars) changed; builds no set.
  ///
  /// - Parameter key: A key of the suite.
  /// - Returns: `true` when `key` is one of ``exactKeys``.
  public func contains(_ key: String) -> Bool {
    switch changed {
    case .one(let changedKey): PropertyListKey(changedKey) == PropertyListKey(key)
    case .several(let keys): keys.contains(PropertyListKey(key))
    }
  }

  /// Two changes are equal when they name the same exact keys and origin (``writer`` is not
  /// compared: compare it to tell who made each).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.origin == rhs.origin && lhs.exactKeys == rhs.exactKeys
  }
}

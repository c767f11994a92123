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

  /// The stored values of the changed keys before and after the change, as the suite's storage
  /// had them while it applied the change; nil when the store that made the change did not tell
  /// them (an administrator's file, a cloud store, a change made with a public initializer).
  private var values: ChangedValues?

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

  /// The stored value of exactly `key` before and after this change, when the store told it
  /// (``PropertyListDefaults``' own suite storage does, for its writes and for the changes it
  /// reads from the file): a program that shows the values, such as the settings editor's change
  /// log, needs no copy of every value to tell what a change replaced.
  ///
  /// - Parameter key: One of the changed keys.
  /// - Returns: The values (nil inside: not stored), or nil when the store did not tell them or
  ///   `key` is not one of the changed keys.
  package func values(of key: PropertyListKey) -> (before: Any?, after: Any?)? {
    guard contains(key.string) else { return nil }
    switch values {
    case .one(let before, let after)?: return (before, after)
    case .several(let before, let after)?: return (before[key], after[key])
    case nil: return nil
    }
  }

  /// This change of `key`, which was `before` and is `after` now (nil: not stored).
  package init(key: String, origin: Origin, writer: Writer, before: Any?, after: Any?) {
    self.init(key: key, origin: origin, writer: writer)
    values = .one(before: before, after: after)
  }

  /// This change of the keys of `before` and `after` (each holding the changed keys that were
  /// stored then and are stored now).
  package init(
    exactKeys: Set<PropertyListKey>, origin: Origin, writer: Writer,
    before: [PropertyListKey: Any], after: [PropertyListKey: Any]
  ) {
    self.init(exactKeys: exactKeys, origin: origin, writer: writer)
    values = .several(before: before, after: after)
  }

  /// This change narrowed to `keys` (a subset of its keys), with its writer and the values it
  /// told.
  package func narrowed(to keys: Set<PropertyListKey>) -> DefaultsChange {
    var narrowed = DefaultsChange(exactKeys: keys, origin: origin, writer: writer)
    narrowed.values = values
    return narrowed
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

  /// The stored values a store told with a change (``values(of:)``). Unchecked `Sendable`:
  /// property-list values are immutable value types.
  private enum ChangedValues: @unchecked Sendable {
    case one(before: Any?, after: Any?)
    case several(before: [PropertyListKey: Any], after: [PropertyListKey: Any])
  }

  /// Two changes are equal when they name the same exact keys and origin (``writer`` is not
  /// compared: compare it to tell who made each).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.origin == rhs.origin && lhs.exactKeys == rhs.exactKeys
  }
}

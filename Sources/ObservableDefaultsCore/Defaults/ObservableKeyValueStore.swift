/// A key-value store that reports which keys changed: what settings objects are bound to.
///
/// ``PropertyListDefaults`` (a UserDefaults suite) conforms, and so does the cloud key-value store;
/// the macros' runtime reads, writes and observes a settings object's keys only through this.
public protocol ObservableKeyValueStore: AnyObject {
  /// The value read for `key` (for a UserDefaults suite: the stored value, else the registered
  /// default), or `nil`.
  func object(forKey key: String) -> Any?

  /// Stores `value` under `key` (`nil` removes the key) and tells every observer of the store
  /// except `excluding`.
  /// - Throws: When the store refuses the write (a malformed file, a value that is not a
  ///   property-list value, a quota); nothing is changed then.
  func write(_ value: Any?, forKey key: String, excluding: ObservationToken?) throws

  /// Stores `value`, a value of a type known to the caller, as ``write(_:forKey:excluding:)``
  /// stores `value.storedValue`: a settings property's write of a `String`, `Int`, `Bool`,
  /// `Double`, `Date` or `Data`. ``PropertyListDefaults`` neither normalizes it nor compares it
  /// with the value it replaces as `Any`; the default implementation calls
  /// ``write(_:forKey:excluding:)``.
  /// - Throws: As ``write(_:forKey:excluding:)``.
  func write(scalar value: PropertyListScalar, forKey key: String, excluding: ObservationToken?)
    throws

  /// Stores several values together (`nil` removes a key) and tells every observer of the store
  /// except `excluding`. ``PropertyListDefaults`` writes them to its file in one locked merge and
  /// the cloud store saves them in one save, so other processes and devices see all of them or
  /// none; the default implementation writes them one by one.
  /// - Throws: When the store refuses a write; ``PropertyListDefaults`` and the cloud store then
  ///   change nothing.
  func write(_ values: [String: Any?], excluding: ObservationToken?) throws

  /// The value stored under `key`, without registered defaults, or `nil`: tells whether a key
  /// is present (a renamed property looks for its value under its previous keys).
  func storedObject(forKey key: String) -> Any?

  /// Calls `handler` with the keys of every change made to the store from now on (see the
  /// conforming type for the thread it is called on); ends when the observation ends.
  func observe(_ handler: @escaping @Sendable (DefaultsChange) -> Void) -> ObservationToken

  /// Sends pending writes to their destination now and takes in changes made elsewhere;
  /// `false` when that failed.
  func synchronize() -> Bool
}

extension ObservableKeyValueStore {
  /// Writes `value.storedValue` with ``write(_:forKey:excluding:)``.
  public func write(
    scalar value: PropertyListScalar, forKey key: String, excluding: ObservationToken?
  ) throws {
    try write(value.storedValue, forKey: key, excluding: excluding)
  }

  /// Writes the values one by one, in no particular order.
  public func write(_ values: [String: Any?], excluding: ObservationToken?) throws {
    for (key, value) in values {
      try write(value, forKey: key, excluding: excluding)
    }
  }

  /// ``object(forKey:)``: the store has no registered defaults.
  public func storedObject(forKey key: String) -> Any? { object(forKey: key) }
}

extension PropertyListDefaults: ObservableKeyValueStore {
  /// ``persistentValue(forKey:)``: the file's value, without registered defaults.
  public func storedObject(forKey key: String) -> Any? { persistentValue(forKey: key) }
}

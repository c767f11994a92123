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
  func write(_ value: Any?, forKey key: String, excluding: DefaultsObservation?) throws

  /// Calls `handler` with the keys of every change made to the store from now on (see the
  /// conforming type for the thread it is called on); ends when the observation ends.
  func observe(_ handler: @escaping @Sendable (DefaultsChange) -> Void) -> DefaultsObservation

  /// Sends pending writes to their destination now and takes in changes made elsewhere;
  /// `false` when that failed.
  func synchronize() -> Bool
}

extension PropertyListDefaults: ObservableKeyValueStore {}

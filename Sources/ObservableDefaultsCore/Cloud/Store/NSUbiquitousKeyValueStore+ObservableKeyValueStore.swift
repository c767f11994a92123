import Foundation

/// The store protocol that settings objects (`@ObservableCloud`) bind to.
extension NSUbiquitousKeyValueStore: ObservableKeyValueStore {
  /// Stores (or with nil removes) a value, checked (an addition to Apple's API; the setters call
  /// it).
  ///
  /// The device copy changes at once; observers of the store in this process are told
  /// synchronously on this thread (only when the value changed); the container is written
  /// shortly after on an internal queue. Writing the value already stored does nothing.
  ///
  /// - Parameters:
  ///   - value: A property-list value, or nil to remove the key.
  ///   - key: The key, at most ``CloudQuota/maximumKeyBytes`` bytes of UTF-8.
  ///   - excluding: An observation not to tell about this write (the writer tells itself).
  /// - Throws: ``CloudStoreError`` when a ``CloudQuota`` limit would be exceeded (then
  ///   ``didChangeExternallyNotification`` is also posted with
  ///   ``NSUbiquitousKeyValueStoreQuotaViolationChange`` and the key) or when `value` is not a
  ///   property-list value. Nothing changes on failure.
  public func write(_ value: Any?, forKey key: String, excluding: ObservationToken? = nil) throws {
    try device.write(
      canonical(value, forKey: key), forKey: PropertyListKey(key), excluding: excluding?.id)
  }

  /// Stores (or with nil removes) several values together, checked: they are saved to the
  /// container in one save with timestamps of one moment, so another device gets all of them
  /// or none (a renamed key is written and its old key removed at once).
  ///
  /// - Parameters:
  ///   - values: Key → a property-list value, or nil to remove the key.
  ///   - excluding: An observation not to tell about this write.
  /// - Throws: The errors of ``write(_:forKey:excluding:)``. Nothing changes on failure.
  public func write(_ values: [String: Any?], excluding: ObservationToken? = nil) throws {
    let checked = try values.reduce(into: [PropertyListKey: Any?]()) { result, entry in
      result[PropertyListKey(entry.key)] = .some(try canonical(entry.value, forKey: entry.key))
    }
    try device.write(checked, excluding: excluding?.id)
  }

  /// The canonical form of `value` (nil stays nil).
  private func canonical(_ value: Any?, forKey key: String) throws -> Any? {
    guard let value else { return nil }
    guard let normalized = PropertyListValue.normalized(value) else {
      throw CloudStoreError(key: key, kind: .invalidValue(type: "\(type(of: value))"))
    }
    return normalized
  }

  /// Calls `handler` with the keys whose value changed.
  ///
  /// - Writes made in this process through any store object of this backend: synchronously on
  ///   the writing thread, origin `.thisProcess`.
  /// - Server changes, the initial sync and account changes: on the backend's queue, origin
  ///   `.otherProcess`, only the keys whose value changed; one change per device whose records
  ///   made it (writer ``DefaultsChange/Writer/device(_:)``; keys that an account change
  ///   removed: ``DefaultsChange/Writer/unknown``).
  /// - Quota violations change no value and are not reported here (see
  ///   ``didChangeExternallyNotification``).
  ///
  /// - Parameter handler: Called for each change; must not block for long.
  /// - Returns: The observation; it ends on `cancel()` or when released.
  public func observe(_ handler: @escaping @Sendable (DefaultsChange) -> Void)
    -> ObservationToken
  {
    device.addObserver { change in
      switch change.reason {
      case nil:
        handler(change.defaultsChange(writer: .current))
      case NSUbiquitousKeyValueStoreQuotaViolationChange:
        break
      default:
        for defaultsChange in change.defaultsChangesFromContainer() { handler(defaultsChange) }
      }
    }
  }

  /// Posts ``didChangeExternallyNotification`` for a change of `keys` from the container or a
  /// quota violation, with Apple's change `reason` (Apple posts nothing for the process's own
  /// writes). Keys that differ only in Unicode normalization are two elements of the changed
  /// keys, in Unicode scalar order.
  func postDidChangeExternally(_ keys: [PropertyListKey], reason: Int) {
    NotificationCenter.default.post(
      name: Self.didChangeExternallyNotification, object: self,
      userInfo: [
        NSUbiquitousKeyValueStoreChangeReasonKey: NSNumber(value: reason),
        NSUbiquitousKeyValueStoreChangedKeysKey: keys.sorted().map(\.string),
      ])
  }
}

import Foundation
import ObservableDefaultsCore

/// A Foundation `UserDefaults` that is not a ``PropertyListDefaults``: read and written as it is;
/// it reports no changes, so objects on it read every value through (see ``_DefaultsBinding/read(_:key:_:)``).
///
/// Objects read what Foundation's `object(forKey:)` returns, also where Foundation on Linux is
/// stale: for a suite named by an absolute path, a key removed with Foundation's own
/// `removeObject(forKey:)` reads back until that suite synchronizes, once its file holds the key
/// and any suite of the process has synchronized: CoreFoundation reads the one file as two
/// domains, this user's and any user's, and the second still holds the key. Removals through an
/// object synchronize at once.
final class FoundationDefaultsStore: ObservableKeyValueStore {
  let defaults: UserDefaults

  init(defaults: UserDefaults) { self.defaults = defaults }

  func object(forKey key: String) -> Any? { defaults.object(forKey: key) }

  /// Writes the value and then `synchronize()`s: Foundation on Linux writes its file only then.
  ///
  /// - Throws: ``FoundationDefaultsValueError`` when `value` is not a property-list value
  ///   (Foundation's `set(_:forKey:)` would stop the process); nothing is written then.
  func write(_ value: Any?, forKey key: String, excluding: ObservationToken?) throws {
    guard let value else {
      defaults.removeObject(forKey: key)
      _ = defaults.synchronize()
      return
    }
    guard let canonical = PropertyListValue.normalized(value) ?? (value as? URL)?.absoluteString
    else {
      throw FoundationDefaultsValueError(key: key, type: "\(type(of: value))")
    }
    guard !propertyListValuesEqual(defaults.object(forKey: key), canonical) else { return }
    defaults.set(canonical, forKey: key)
    _ = defaults.synchronize()
  }

  func observe(_ handler: @escaping @Sendable (DefaultsChange) -> Void) -> ObservationToken {
    ObservationToken(onCancel: {})
  }

  func synchronize() -> Bool { defaults.synchronize() }
}

/// A value refused by ``FoundationDefaultsStore``: not a property-list value.
struct FoundationDefaultsValueError: Error, CustomStringConvertible {
  /// The key written.
  let key: String
  /// The value's type.
  let type: String

  var description: String {
    "UserDefaults cannot store the value for key \"\(key)\": a value of type \(type) is not a "
      + "property-list value; nothing was written"
  }
}

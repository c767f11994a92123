/// A change of a device's copy, as told to the store objects using it.
struct CloudChange: Sendable {
  /// The keys concerned: a property's write names one, kept without an array (an array, and the
  /// set made of it, were a tenth of a cloud write each).
  private enum ChangedKeys: Sendable {
    case one(PropertyListKey)
    case several([PropertyListKey])
  }

  private let changed: ChangedKeys
  /// Apple's change reason (``NSUbiquitousKeyValueStoreServerChange`` …) for changes that came
  /// from the container or a quota violation; nil for a write made in this process.
  let reason: Int?

  /// A change of one key: its value changed, or a write of it was refused.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - reason: Apple's change reason; nil for a write made in this process.
  init(key: PropertyListKey, reason: Int? = nil) {
    changed = .one(key)
    self.reason = reason
  }

  /// A change of `keys`, each named once.
  ///
  /// - Parameters:
  ///   - keys: The keys whose values changed, or whose writes were refused.
  ///   - reason: Apple's change reason; nil for a write made in this process.
  init(keys: [PropertyListKey], reason: Int?) {
    changed = keys.count == 1 ? .one(keys[0]) : .several(keys)
    self.reason = reason
  }

  /// The keys concerned, each once (exact: keys that differ only in Unicode normalization are
  /// two elements).
  var keys: [PropertyListKey] {
    switch changed {
    case .one(let key): [key]
    case .several(let keys): keys
    }
  }

  /// The change as a ``DefaultsChange`` from `origin` (one key needs no set).
  func defaultsChange(origin: DefaultsChange.Origin) -> DefaultsChange {
    switch changed {
    case .one(let key): DefaultsChange(key: key.string, origin: origin)
    case .several(let keys): DefaultsChange(exactKeys: Set(keys), origin: origin)
    }
  }
}

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
  /// Key → the device whose record made the change (``CloudTimestamp/device``), for changes
  /// that came from the container; empty otherwise.
  let devices: [PropertyListKey: String]

  /// A change of one key: its value changed, or a write of it was refused.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - reason: Apple's change reason; nil for a write made in this process.
  init(key: PropertyListKey, reason: Int? = nil) {
    changed = .one(key)
    self.reason = reason
    devices = [:]
  }

  /// A change of `keys`, each named once.
  ///
  /// - Parameters:
  ///   - keys: The keys whose values changed, or whose writes were refused.
  ///   - reason: Apple's change reason; nil for a write made in this process.
  ///   - devices: Key → the device whose record made the change, for changes from the container.
  init(keys: [PropertyListKey], reason: Int?, devices: [PropertyListKey: String] = [:]) {
    changed = keys.count == 1 ? .one(keys[0]) : .several(keys)
    self.reason = reason
    self.devices = devices
  }

  /// The keys concerned, each once (exact: keys that differ only in Unicode normalization are
  /// two elements).
  var keys: [PropertyListKey] {
    switch changed {
    case .one(let key): [key]
    case .several(let keys): keys
    }
  }

  /// The change as a ``DefaultsChange`` of this process, made by `writer` (one key needs no
  /// set).
  func defaultsChange(writer: DefaultsChange.Writer) -> DefaultsChange {
    switch changed {
    case .one(let key): DefaultsChange(key: key.string, origin: .thisProcess, writer: writer)
    case .several(let keys):
      DefaultsChange(exactKeys: Set(keys), origin: .thisProcess, writer: writer)
    }
  }

  /// The change from the container as ``DefaultsChange``s from other processes: one per
  /// device whose records made it (``DefaultsChange/Writer/device(_:)``), in the order of
  /// device identifiers, then one of the keys no record names (``DefaultsChange/Writer/unknown``).
  /// An account change is one change of every key it replaced, by ``DefaultsChange/Writer/unknown``,
  /// as Apple posts it as one notification.
  func defaultsChangesFromContainer() -> [DefaultsChange] {
    if reason == NSUbiquitousKeyValueStoreAccountChange {
      return [DefaultsChange(exactKeys: Set(keys), origin: .otherProcess, writer: .unknown)]
    }
    var byWriter: [DefaultsChange.Writer: Set<PropertyListKey>] = [:]
    for key in keys {
      byWriter[devices[key].map(DefaultsChange.Writer.device) ?? .unknown, default: []].insert(key)
    }
    return byWriter.sorted { "\($0.key)" < "\($1.key)" }.map {
      DefaultsChange(exactKeys: $0.value, origin: .otherProcess, writer: $0.key)
    }
  }
}

import Foundation

/// The layers below the command line (``DefaultsLayer``): mandatory values, the user's file,
/// system-wide defaults and registered defaults.
extension PropertyListDefaults {
  /// A value and the layer it comes from.
  struct LayeredEntry {
    let value: Any
    let layer: DefaultsLayer
  }

  /// The value of `key` from the layers below the command line, with `system` as the suite's
  /// system files.
  func layeredEntry(forKey key: PropertyListKey, in system: SystemDefaults) -> LayeredEntry? {
    Self.layeredEntry(forKey: key, in: system, storage: storage, fileURL: fileURL)
  }

  /// ``layeredEntry(forKey:in:)`` for the suite of `storage`, whose file is `fileURL`.
  static func layeredEntry(
    forKey key: PropertyListKey, in system: SystemDefaults, storage: SuiteStorage, fileURL: URL
  ) -> LayeredEntry? {
    if let (value, layer) = system.entry(
      forKey: key, userFile: fileURL, userValue: { storage.value(forKey: $0.string) })
    {
      return LayeredEntry(value: value, layer: layer)
    }
    return RegistrationDomain.shared.value(forKey: key.string).map {
      LayeredEntry(value: $0, layer: .registered)
    }
  }

  /// Throws the refusal of a write to the first of `keys` (in key order) that is mandatory,
  /// recorded as ``lastError``; nothing when none is.
  func refuseMandatory(_ keys: some Sequence<String>) throws {
    guard let systemLayers else { return }
    // No array is allocated while no key is mandatory (the path of every write).
    let locked = keys.compactMap { key in systemLayers.mandatoryEntry(forKey: key).map { (key, $0) }
    }
    guard let (key, entry) = locked.min(by: { $0.0 < $1.0 }) else { return }
    let refusal = PropertyListError(
      file: entry.file, kind: .mandatory(key: key),
      reason: "an administrator's lock; the value stays as set there")
    storage.record(refusal)
    throw refusal
  }

  /// ``observe(_:)``: the file's changes without the keys a mandatory value hides, and the
  /// changes of the system files that change a value. The observation has the id of the file's
  /// observer, so a write that excludes it is not told back. `handler` is handed the change's
  /// report to make (``ObserverList/LazyHandler``): one that does not read it costs a write no
  /// report, unless a mandatory value must be filtered out of it.
  func observeLayers(_ handler: @escaping ObserverList<DefaultsChange>.LazyHandler)
    -> ObservationToken
  {
    guard let systemLayers else { return storage.addLazyObserver(handler) }
    let fileObservation = storage.addLazyObserver { [weak systemLayers] report in
      let mandatory = systemLayers?.values.mandatory ?? [:]
      guard !mandatory.isEmpty else { return handler(report) }
      let change = report()
      let keys = change.exactKeys.filter { mandatory[$0] == nil }
      guard !keys.isEmpty else { return }
      handler { change.narrowed(to: keys) }
    }
    let (storage, fileURL) = (storage, fileURL)
    let layerObservation = systemLayers.addObserver { change in
      let keys = change.keys.filter { key in
        guard Self.commandLineDomain[key.string] == nil else { return false }
        let old = Self.layeredEntry(
          forKey: key, in: change.old, storage: storage, fileURL: fileURL)?
          .value
        let new = Self.layeredEntry(
          forKey: key, in: change.new, storage: storage, fileURL: fileURL)?
          .value
        guard let old, let new else { return (old == nil) != (new == nil) }
        return !valuesEqual(old, new)
      }
      guard !keys.isEmpty else { return }
      handler { DefaultsChange(exactKeys: keys, origin: .otherProcess, writer: .administrator) }
    }
    return ObservationToken(id: fileObservation.id) {
      fileObservation.cancel()
      layerObservation.cancel()
    }
  }
}

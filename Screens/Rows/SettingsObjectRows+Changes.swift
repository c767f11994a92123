import ObservableDefaults
import ObservableDefaultsCore
import Synchronization

/// Whether the editor is writing a settings object now: a change its store reports meanwhile
/// (synchronously, on the writing thread) was typed in the editor.
final class EditorWriting: Sendable {
  private let flag = Mutex(false)

  /// Whether a write of the editor runs now.
  var isWriting: Bool { flag.withLock { $0 } }

  /// Runs `body` as the editor's write.
  func during<Result>(_ body: () throws -> Result) rethrows -> Result {
    flag.withLock { $0 = true }
    defer { flag.withLock { $0 = false } }
    return try body()
  }
}

/// A store held weakly, read from any thread (the library's stores keep their values under a
/// lock).
final class WeakStore: @unchecked Sendable {
  weak var store: (any ObservableKeyValueStore)?

  init(_ store: any ObservableKeyValueStore) {
    self.store = store
  }
}

extension SettingsObjectRows: ChangeReportingSource {
  /// Follows the object's store: the stored value of each property before and after every
  /// change, who made it, and whether the editor did.
  func startReporting(post: @escaping MainJobPoster) {
    guard changeObservation == nil else { return }
    let store = settings.store.store
    for key in settings.properties.compactMap(\.storageKey) {
      storedValues[key] = .some(store.storedObject(forKey: key))
    }
    let writing = writing
    let keys = Set(storedValues.keys)
    // Weak: the handler lives in the store's observer list; a strong store there would be
    // released, and deinitialized, while that list's lock is held.
    let weakStore = WeakStore(store)
    // Told right after each change (on the writing thread, or the store's queue): the values
    // are read then, so two changes in a row are two entries, each with its own writer.
    changeObservation = store.observe { [weak self] change in
      guard let store = weakStore.store else { return }
      let byEditor = writing.isWriting
      let observers = store.observerCount ?? 0
      let new = change.keys.filter(keys.contains).map { ($0, store.storedObject(forKey: $0)) }
      // Sendable: property-list values are immutable value types.
      nonisolated(unsafe) let values = new
      post {
        self?.noteChange(
          values, writer: change.writer, byEditor: byEditor, observersTold: observers)
      }
    }
  }

  private func noteChange(
    _ values: [(String, Any?)], writer: DefaultsChange.Writer, byEditor: Bool, observersTold: Int
  ) {
    let before = values.reduce(into: [String: Any?]()) { $0[$1.0] = storedValues[$1.0] ?? nil }
    for (key, value) in values { storedValues[key] = .some(value) }
    reportChanges(
      before, now: { self.storedValues[$0] ?? nil }, writer: writer, byEditor: byEditor,
      observersTold: observersTold)
  }
}

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
    changeObservation = store.observe { [weak self] change in
      let byEditor = writing.isWriting
      post { self?.noteChange(change, byEditor: byEditor) }
    }
  }

  private func noteChange(_ change: DefaultsChange, byEditor: Bool) {
    let store = settings.store.store
    let keys = change.keys.filter { storedValues[$0] != nil }
    let before = keys.reduce(into: [String: Any?]()) { $0[$1] = storedValues[$1] ?? nil }
    for key in keys { storedValues[key] = .some(store.storedObject(forKey: key)) }
    reportChanges(
      before, now: { self.storedValues[$0] ?? nil }, writer: change.writer, byEditor: byEditor,
      observersTold: store.observerCount ?? 0)
  }
}

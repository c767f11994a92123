extension ObservableKeyValueStore {
  /// How many observers of the store's changes there are in this process now: the objects
  /// bound to it, the editor, and every other `observe(_:)` (each store object of a cloud
  /// backend counts once, for its notifications); nil for a store of another kind.
  package var observerCount: Int? {
    switch self {
    case let defaults as PropertyListDefaults: defaults.storage.observerCount
    case let cloud as NSUbiquitousKeyValueStore: cloud.device.observerCount
    default: nil
    }
  }
}

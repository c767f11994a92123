import ObservableDefaults

/// The header's word for a cloud store's sync state.
enum CloudStoreState {
  /// The last error reading or writing the container and how many writes wait for it; else
  /// the backend's ``CloudSyncStatus/summary`` (`synced`, `offline, 2 pending`, `connecting`),
  /// whose `synced` the backend states.
  static func text(_ cloud: NSUbiquitousKeyValueStore) -> String {
    let status = cloud.syncStatus
    if let error = cloud.lastError {
      let waiting = status.pendingCount
      return "sync error: \(error)"
        + (waiting > 0 ? " (\(waiting) write\(waiting == 1 ? "" : "s") pending)" : "")
    }
    return status.summary
  }
}

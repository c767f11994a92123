import ObservableDefaultsCore

/// A test backend built on an ``InMemoryCloudBackend``: it passes to `base` every call it does
/// not implement itself (a test overrides the save or the status it is about).
protocol WrappingCloudBackend: CloudBackend {
  /// The backend the calls go to.
  var base: InMemoryCloudBackend { get }
}

extension WrappingCloudBackend {
  func load() throws -> CloudRecordBatch { base.load() }

  func save(_ records: [PropertyListKey: CloudRecord]) throws { try base.save(records) }

  func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  ) -> ObservationToken {
    base.subscribe(from: cursor, handler)
  }

  func switchAccount(to account: String) throws { base.switchAccount(to: account) }

  var syncStatus: CloudSyncStatus { base.syncStatus }
}

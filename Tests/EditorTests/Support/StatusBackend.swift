import Foundation
import ObservableDefaults
import ObservableDefaultsCore

/// A cloud backend whose connection the test sets, over an in-memory container.
final class StatusBackend: CloudBackend, @unchecked Sendable {
  private let container = InMemoryCloudBackend()
  private let lock = NSLock()
  private var status = CloudSyncStatus(
    backend: "test", endpoint: nil, account: "default", connection: .connected,
    reachedQuorum: true)

  /// Sets what ``syncStatus`` answers.
  func set(_ connection: CloudSyncStatus.Connection, pending: Int, reachedQuorum: Bool = true) {
    lock.withLock {
      status = CloudSyncStatus(
        backend: "test", endpoint: nil, account: "default", connection: connection,
        pendingCount: pending, reachedQuorum: reachedQuorum)
    }
  }

  var syncStatus: CloudSyncStatus { lock.withLock { status } }
  func load() -> CloudRecordBatch { container.load() }
  func save(_ records: [PropertyListKey: CloudRecord]) throws { try container.save(records) }
  func switchAccount(to account: String) { container.switchAccount(to: account) }
  func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  )
    -> ObservationToken
  {
    container.subscribe(from: cursor, handler)
  }
}

/// A cloud object on a store the test chooses.
@ObservableCloud(autoInit: false)
final class StatusCloudSettings {
  var name = "Fatbobman"

  init(store: NSUbiquitousKeyValueStore) {
    _$defaults.store = store
    _cloudObserver = CloudObservation(host: self, prefix: _prefix)
  }
}

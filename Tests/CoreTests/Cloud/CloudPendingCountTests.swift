import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

/// `syncStatus.pendingCount` counts each write once: while a save runs, the writes it carries
/// are the backend's to count (a journal holds them from the call's start), not the store's too.
@Suite struct CloudPendingCountTests {
  /// A backend that journals what it is handed, like etcd's, and whose saves wait for `open`.
  final class JournalingBackend: CloudBackend, @unchecked Sendable {
    let base = InMemoryCloudBackend()
    private let lock = NSLock()
    private var journal: Set<String> = []
    private var waiting = 0
    let open = DispatchSemaphore(value: 0)

    /// Saves waiting for `open`.
    var waitingSaves: Int { lock.withLock { waiting } }

    func load() throws -> CloudRecordBatch { base.load() }

    func save(_ records: [String: CloudRecord]) throws {
      lock.withLock {
        journal.formUnion(records.keys)
        waiting += 1
      }
      open.wait()
      try base.save(records)
      lock.withLock {
        journal.subtract(records.keys)
        waiting -= 1
      }
    }

    func subscribe(
      from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
    ) -> DefaultsObservation {
      base.subscribe(from: cursor, handler)
    }

    func switchAccount(to account: String) throws { base.switchAccount(to: account) }

    var syncStatus: CloudSyncStatus {
      var status = base.syncStatus
      status.pendingCount = lock.withLock { journal.count }
      return status
    }
  }

  @Test func writesInARunningSaveAreCountedOnce() async throws {
    let backend = JournalingBackend()
    let store = NSUbiquitousKeyValueStore(backend: backend)
    store.set(0, forKey: "k0")
    #expect(await poll { backend.waitingSaves == 1 })
    #expect(store.syncStatus.pendingCount == 1)
    // Writes made while a save runs are the store's until the next save takes them.
    for index in 1..<20 { store.set(index, forKey: "k\(index)") }
    #expect(store.syncStatus.pendingCount == 20)
    backend.open.signal()
    // The next save carries the 19; the backend's journal counts them, the store does not.
    #expect(await poll { backend.waitingSaves == 1 && backend.syncStatus.pendingCount == 19 })
    #expect(store.syncStatus.pendingCount == 19)
    backend.open.signal()
    #expect(await poll { backend.waitingSaves == 0 && store.syncStatus.pendingCount == 0 })
    #expect(backend.base.load().records.count == 20)
  }
}

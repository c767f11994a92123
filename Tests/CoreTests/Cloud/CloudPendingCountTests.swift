import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

/// `syncStatus.pendingCount` counts each write once: while a save runs, the writes it carries
/// are the store's to count, and a journaling backend (like etcd's) counts only what it holds
/// beyond the running save; a backend with no journal (embedded, NATS) counts nothing.
@Suite struct CloudPendingCountTests {
  /// A backend that journals what it is handed, like etcd's, whose saves wait for `open`, and
  /// whose status counts the journal beyond the running save.
  final class JournalingBackend: WrappingCloudBackend, @unchecked Sendable {
    let base = InMemoryCloudBackend()
    private let lock = NSLock()
    private var journal: Set<PropertyListKey> = []
    private var running: Set<PropertyListKey> = []
    private var waiting = 0
    let open = DispatchSemaphore(value: 0)

    /// Saves waiting for `open`.
    var waitingSaves: Int { lock.withLock { waiting } }

    func save(_ records: [PropertyListKey: CloudRecord]) throws {
      lock.withLock {
        journal.formUnion(records.keys)
        running = Set(records.keys)
        waiting += 1
      }
      open.wait()
      try base.save(records)
      lock.withLock {
        journal.subtract(records.keys)
        running = []
        waiting -= 1
      }
    }

    var syncStatus: CloudSyncStatus {
      var status = base.syncStatus
      status.pendingCount = lock.withLock { journal.subtracting(running).count }
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
    // The next save carries the 19; the store counts them, the backend's journal does not.
    #expect(await poll { backend.waitingSaves == 1 && store.syncStatus.pendingCount == 19 })
    #expect(backend.syncStatus.pendingCount == 0)
    backend.open.signal()
    #expect(await poll { backend.waitingSaves == 0 && store.syncStatus.pendingCount == 0 })
    #expect(backend.base.load().records.count == 20)
  }
}

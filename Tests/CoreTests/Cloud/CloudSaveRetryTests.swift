import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// A failed save is tried again by itself: the writes reach the backend without another write
/// or `synchronize()`, and each failure is followed by exactly one retry.
@Suite struct CloudSaveRetryTests {
  struct Unreachable: Error {}

  /// A backend whose first `failures` saves throw.
  final class FlakyBackend: WrappingCloudBackend, @unchecked Sendable {
    let base = InMemoryCloudBackend()
    private let lock = NSLock()
    private var remainingFailures: Int
    private var attempts = 0

    init(failures: Int) { remainingFailures = failures }

    /// Saves tried, failed or not.
    var saveAttempts: Int { lock.withLock { attempts } }

    func save(_ records: [PropertyListKey: CloudRecord]) throws {
      let fails = lock.withLock {
        attempts += 1
        remainingFailures -= 1
        return remainingFailures >= 0
      }
      if fails { throw Unreachable() }
      try base.save(records)
    }
  }

  @Test func aFailedSaveIsTriedAgainUntilItSucceeds() async throws {
    let backend = FlakyBackend(failures: 2)
    let store = NSUbiquitousKeyValueStore(backend: backend)
    store.set("v", forKey: "k")
    // The first save and its retries after 1 s and 2 s: the third succeeds.
    #expect(await poll(within: .seconds(20)) { backend.base.load().records["k"] != nil })
    #expect(backend.saveAttempts == 3)
    #expect(backend.base.load().records["k"]?.value as? String == "v")
    #expect(store.syncStatus.pendingCount == 0)
  }
}

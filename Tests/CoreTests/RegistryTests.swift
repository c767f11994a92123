import Foundation
import TestSupport
import Testing

/// The weak registries of suite storages and cloud devices under churn from many threads.
@Suite struct RegistryTests {
  /// Issue 12, item 8: a storage's `deinit` ran inside the registry's lock (a weak load dropped
  /// the last strong reference) and blocked on that lock; every thread, and the exit flush, then
  /// hung. Run in another process so a hang is killed and reported instead of stopping the tests.
  @Test func openingAndDroppingSuitesAndStoresFromEightThreadsFinishes() async throws {
    try await withTemporaryFolder { folder in
      let probes = try (0..<2).map { _ in
        try CoreProbe.start(["registry-churn", "8", "3000"], configHome: folder.url)
      }
      for probe in probes {
        let result = await probe.finish(orKillAfter: .seconds(120))
        #expect(
          result != nil, "registry-churn did not finish within 120 s: the registry deadlocked")
        #expect(result?.status == 0)
        #expect(result?.output == "finished\n")
      }
    }
  }
}

import Foundation
import ObservableDefaults
import Synchronization
import TestSupport
import Testing

/// `for await name in Observations({ settings.name })` over a class without actor isolation
/// (the style of the upstream examples): outside changes arrive on the store's queue while the
/// sequence reads on the concurrency pool, and it must still end on each change's value.
@Suite struct ObservationsSequenceTests {
  @Test func observationsOfAClassWithoutIsolationEndsOnEveryOutsideChangesValue() async throws {
    let suite = TemporarySuite()
    nonisolated(unsafe) let settings = Settings(userDefaults: suite.store())
    let observed = Mutex<[String]>([])
    let following = Task {
      for await name in Observations({ settings.name }) { observed.withLock { $0.append(name) } }
    }
    defer { following.cancel() }
    #expect(await poll { observed.withLock { $0 } == ["Fatbobman"] })
    for index in 1...20 {
      _ = try PropertyListFile(url: suite.fileURL).apply(["name": .set("edit \(index)")])
      #expect(
        await poll { observed.withLock { $0.last } == "edit \(index)" },
        "edit \(index): \(observed.withLock { $0.suffix(3) })")
    }
  }
}

import Foundation
import ObservableDefaults
import Synchronization
import TestSupport
import Testing

/// `previousKeys:` on `@CloudKey`: the value moves to the new key in one save, so another
/// device gets the new key and the removal of the old one together.
@Suite struct RenamedCloudKeyTests {
  /// The containers' folder, removed with the suite's instance (one per test).
  let temporary: TemporaryFolder
  var folder: URL { temporary.url }

  init() throws { temporary = try TemporaryFolder(prefix: "od-cloud") }

  func device() -> NSUbiquitousKeyValueStore {
    NSUbiquitousKeyValueStore(
      backend: EmbeddedCloudBackend(root: folder, container: "tests", account: "tester"))
  }

  @Test func theValueMovesToTheNewKeyOnEveryDeviceInOneChange() throws {
    let first = device()
    first.set("Ann", forKey: "name")
    #expect(first.synchronize())
    let second = device()
    #expect(RenamedCloudSettings(store: second).displayName == "Ann")
    let changes = Mutex<[Set<String>]>([])
    let observation = second.observe { change in changes.withLock { $0.append(change.keys) } }
    defer { observation.cancel() }

    let settings = RenamedCloudSettings(store: first)
    #expect(settings.displayName == "Ann")
    settings.displayName = "Bo"
    #expect(first.synchronize())

    // Observers are told just after the new values are visible: wait for both.
    #expect(
      pollBlocking {
        second.object(forKey: "displayName") as? String == "Bo" && !changes.withLock { $0.isEmpty }
      })
    #expect(second.object(forKey: "name") == nil)
    #expect(changes.withLock { $0 } == [["displayName", "name"]])
    #expect(RenamedCloudSettings(store: device()).displayName == "Bo")
  }
}

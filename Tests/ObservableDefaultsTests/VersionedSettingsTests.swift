import Foundation
import ObservableDefaults
import Synchronization
import TestSupport
import Testing

/// `VersionedSettings`: a class's schema steps run on its store before its properties are read,
/// once; on the cloud, one device's migration reaches the others without being written back.
@Suite(.serialized) struct VersionedSettingsTests {
  private func runs() -> Int { versionedStepRuns.withLock { $0.count } }

  @Test func theStepsRunBeforeTheFirstReadAndOnce() throws {
    let suite = TemporarySuite()
    suite.store().set("dark", forKey: "theme")
    try suite.store().flush()
    let before = runs()
    let settings = VersionedAppSettings(userDefaults: suite.store())
    #expect(settings.appearanceTheme == "dark")
    #expect(VersionedAppSettings(userDefaults: suite.store()).appearanceTheme == "dark")
    #expect(runs() == before + 1)
    let values = try suite.fileValues()
    #expect(values.keys.sorted() == ["ObservableDefaults.schemaVersion", "appearanceTheme"])
    #expect(values["ObservableDefaults.schemaVersion"] as? Int == 1)
  }

  @Test func aMigrationOnOneDeviceConvergesOnTheOtherWithoutWritesBack() throws {
    let temporary = try TemporaryFolder(prefix: "od-cloud")
    defer { temporary.remove() }
    func device() -> NSUbiquitousKeyValueStore {
      NSUbiquitousKeyValueStore(
        backend: EmbeddedCloudBackend(root: temporary.url, container: "tests", account: "tester"))
    }
    let first = device()
    first.set("dark", forKey: "theme")
    #expect(first.synchronize())
    let second = device()
    #expect(second.object(forKey: "theme") as? String == "dark")
    let changesOnFirst = Mutex<[Set<String>]>([])
    let changesOnSecond = Mutex<[Set<String>]>([])
    let observations = [
      first.observe { change in changesOnFirst.withLock { $0.append(change.keys) } },
      second.observe { change in changesOnSecond.withLock { $0.append(change.keys) } },
    ]
    defer {
      for observation in observations { observation.cancel() }
    }
    let before = runs()

    #expect(VersionedCloudSettings(store: first).appearanceTheme == "dark")
    #expect(first.synchronize())
    #expect(pollBlocking { second.object(forKey: "appearanceTheme") as? String == "dark" })
    #expect(VersionedCloudSettings(store: second).appearanceTheme == "dark")
    #expect(second.synchronize())
    #expect(first.synchronize())

    #expect(runs() == before + 1)
    // Observers are told just after the new values are visible: wait for both logs.
    #expect(
      pollBlocking {
        !changesOnFirst.withLock { $0.isEmpty } && !changesOnSecond.withLock { $0.isEmpty }
      })
    let migratedKeys: Set<String> = [
      "ObservableDefaults.schemaVersion", "appearanceTheme", "theme",
    ]
    #expect(changesOnFirst.withLock { $0 } == [migratedKeys])
    #expect(changesOnSecond.withLock { $0 } == [migratedKeys])
    #expect(second.object(forKey: "theme") == nil)
    #expect(device().object(forKey: "ObservableDefaults.schemaVersion") as? Int == 1)
  }
}

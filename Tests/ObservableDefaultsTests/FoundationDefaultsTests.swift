import Foundation
import ObservableDefaults
import TestSupport
import Testing

/// A Foundation suite only one test uses, in a fresh temporary folder (Foundation here takes an
/// absolute suite name as the path of the file, without `.plist`). A test removes it at its end
/// (`defer { suite.remove() }`): that use keeps the value alive until then, where the last use of
/// ``defaults`` could let it go, and its folder, while the test still writes.
private final class FoundationSuite {
  // Only an unusable temporary folder fails here, and then no test of this target can run.
  let temporary = try! TemporaryFolder(prefix: "od-foundation")
  lazy var defaults = UserDefaults(suiteName: temporary.file("suite").path)!

  /// Removes `keys` behind the objects' back, as another part of the app would, and
  /// synchronizes: only then does Foundation on Linux read the removal back when its file holds
  /// the key. For a suite named by an absolute path, CoreFoundation reads the one file as two
  /// domains, this user's and any user's; once any suite of the process synchronizes, the second
  /// reloads the file, and `object(forKey:)` returns a key the first removed only in memory
  /// (Swift 6.3.1's Foundation: 156 of 400 removals read back while other suites synchronized).
  func removeAndSynchronize(_ keys: String...) {
    for key in keys { defaults.removeObject(forKey: key) }
    _ = defaults.synchronize()
  }

  /// Writes what Foundation holds back for the suite, then removes the folder.
  func remove() {
    _ = defaults.synchronize()
    temporary.remove()
  }
}

/// A Foundation `UserDefaults` handed to an object: it reports no changes on Linux, so the object
/// reads its values through, and its writes are synchronized to the file at once.
@Suite struct FoundationDefaultsTests {
  @Test func valuesWrittenBehindTheObjectsBackAreReadAtOnce() {
    let suite = FoundationSuite()
    defer { suite.remove() }
    let defaults = suite.defaults
    let settings = Settings(userDefaults: defaults)
    defaults.set("External", forKey: "name")
    defaults.set(99, forKey: "age")
    #expect(settings.name == "External")
    #expect(settings.age == 99)
    suite.removeAndSynchronize("name")
    #expect(settings.name == "Fatbobman")
  }

  @Test func aWriteComparesWithTheStoredValueNotAStaleOne() {
    let suite = FoundationSuite()
    defer { suite.remove() }
    let defaults = suite.defaults
    let settings = Settings(userDefaults: defaults, ignoreExternalChanges: true)
    settings.nickname = "Mine"
    defaults.set("Theirs", forKey: "nickname")
    settings.nickname = "Mine"
    #expect(defaults.string(forKey: "nickname") == "Mine")
  }

  @Test func theOriginalsExampleAndTheObjectsWritesReachTheFile() throws {
    let temporary = try TemporaryFolder(prefix: "od-foundation")
    defer { temporary.remove() }
    let folder = temporary.url
    let run = try probeOutput(["foundation", "r1"], environment: ["XDG_CONFIG_HOME": folder.path])
    #expect(run.status == 0)
    #expect(run.output == "External\nMine\nFatbobman\n42\n")
    let file =
      try PropertyListFile(url: folder.appendingPathComponent("r1.plist")).read()?.values ?? [:]
    #expect(file["age"] as? Int == 42)
    #expect(file["name"] == nil)
    #expect(file.count == 1)
  }
}

/// `UserDefaults.didChangeNotification` and `NSUbiquitousKeyValueStore.didChangeExternallyNotification`
/// posted for an object's store make it read the named keys again (all its keys when none are
/// named) and notify only the properties whose value changed.
@Suite struct PostedNotificationTests {
  private func post(_ defaults: UserDefaults?, keys: [String]? = nil) {
    NotificationCenter.default.post(
      name: UserDefaults.didChangeNotification, object: defaults,
      userInfo: keys.map { [NSUbiquitousKeyValueStoreChangedKeysKey: $0] })
  }

  @Test func didChangeNotificationNotifiesOnlyChangedProperties() {
    let suite = FoundationSuite()
    defer { suite.remove() }
    let defaults = suite.defaults
    let settings = Settings(userDefaults: defaults)
    let name = ChangeCounter(settings, \.name)
    let age = ChangeCounter(settings, \.age)
    defaults.set("External", forKey: "name")
    #expect(settings.name == "External")
    #expect(name.count == 0)
    post(defaults)
    #expect(name.count == 1)
    #expect(age.count == 0)
    post(defaults)
    #expect(name.count == 1)
  }

  @Test func namedKeysAreTheOnlyOnesReadAgain() {
    let suite = FoundationSuite()
    defer { suite.remove() }
    let defaults = suite.defaults
    let settings = Settings(userDefaults: defaults)
    let name = ChangeCounter(settings, \.name)
    let age = ChangeCounter(settings, \.age)
    defaults.set("External", forKey: "name")
    defaults.set(7, forKey: "age")
    post(defaults, keys: ["age"])
    #expect(age.count == 1)
    #expect(name.count == 0)
    post(defaults, keys: [])
    #expect(name.count == 0)
    post(defaults)
    #expect(name.count == 1)
    #expect(age.count == 1)
  }

  @Test func anotherStoresNotificationCountsOnlyWithoutLimitToInstance() {
    let suite = FoundationSuite()
    defer { suite.remove() }
    let defaults = suite.defaults
    let limited = Settings(userDefaults: defaults)
    let shared = SharedGroupSettings(userDefaults: defaults)
    let limitedName = ChangeCounter(limited, \.name)
    let sharedName = ChangeCounter(shared, \.name)
    defaults.set("External", forKey: "name")
    let otherSuite = FoundationSuite()
    defer { otherSuite.remove() }
    post(otherSuite.defaults)
    #expect(limitedName.count == 0)
    #expect(sharedName.count == 1)
    post(nil)
    #expect(limitedName.count == 0)
    #expect(sharedName.count == 1)
  }

  @Test func aPropertyListDefaultsStoreNeedsNoNotification() {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = Settings(userDefaults: store)
    let name = ChangeCounter(settings, \.name)
    store.set("Direct", forKey: "name")
    #expect(name.count == 1)
    post(store)
    post(store, keys: ["name"])
    #expect(name.count == 1)
    #expect(settings.name == "Direct")
  }

  @Test func ignoreExternalChangesReadsAgainSilently() {
    let suite = FoundationSuite()
    defer { suite.remove() }
    let defaults = suite.defaults
    let settings = Settings(userDefaults: defaults, ignoreExternalChanges: true)
    let name = ChangeCounter(settings, \.name)
    defaults.set("External", forKey: "name")
    post(defaults)
    #expect(name.count == 0)
    #expect(settings.name == "External")
  }

  @Test func cloudNotificationWithChangedKeysLeavesOneNotificationPerChange() throws {
    let temporary = try TemporaryFolder(prefix: "od-cloud")
    let folder = temporary.url
    let store = NSUbiquitousKeyValueStore(
      backend: EmbeddedCloudBackend(root: folder, container: "tests", account: "tester"))
    // The write saved before the folder goes: a device makes a container it never found.
    defer {
      #expect(store.synchronize())
      temporary.remove()
    }
    let settings = SyncedSettings(store: store)
    let name = ChangeCounter(settings, \.name)
    let age = ChangeCounter(settings, \.age)
    store.set("Direct", forKey: "name")
    for keys in [["name"], ["name", "age"], nil] {
      NotificationCenter.default.post(
        name: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: store,
        userInfo: keys.map {
          [
            NSUbiquitousKeyValueStoreChangedKeysKey: $0,
            NSUbiquitousKeyValueStoreChangeReasonKey: NSUbiquitousKeyValueStoreServerChange,
          ]
        })
    }
    #expect(settings.name == "Direct")
    #expect(name.count == 1)
    #expect(age.count == 0)
  }

  @Test func aReleasedObjectIgnoresLaterNotificationsAndItsReplacementFollowsThem() {
    let suite = FoundationSuite()
    defer { suite.remove() }
    let defaults = suite.defaults
    weak var released: Settings?
    do {
      let settings = Settings(userDefaults: defaults)
      released = settings
      #expect(settings.name == "Fatbobman")
    }
    #expect(released == nil)
    defaults.set("AfterDeinit", forKey: "name")
    post(defaults)
    let replacement = Settings(userDefaults: defaults)
    #expect(replacement.name == "AfterDeinit")
    let name = ChangeCounter(replacement, \.name)
    defaults.set("ReplacementUpdate", forKey: "name")
    post(defaults)
    #expect(replacement.name == "ReplacementUpdate")
    #expect(name.count == 1)
  }

  @Test func anotherFoundationSuiteIsNotRead() {
    let suite = FoundationSuite()
    defer { suite.remove() }
    let defaults = suite.defaults
    let otherSuite = FoundationSuite()
    defer { otherSuite.remove() }
    let other = otherSuite.defaults
    let settings = Settings(userDefaults: defaults)
    other.set("Elsewhere", forKey: "name")
    post(other)
    #expect(settings.name == "Fatbobman")
    defaults.set("Here", forKey: "name")
    #expect(settings.name == "Here")
  }
}

/// Keys only the registration test below uses (registered defaults are process-wide).
@ObservableDefaults
final class RegisteredFallbackSettings {
  @DefaultsKey(userDefaultsKey: "od-tests-registered-name") var name: String = "declared"
  @DefaultsKey(userDefaultsKey: "od-tests-registered-optional") var optionalName: String?
}

/// The original's "removing a key falls back to the registered default" behaviours, on a
/// Foundation `UserDefaults` with its own `register(defaults:)`.
@Suite struct RegisteredFallbackTests {
  @Test func removingAKeyFallsBackToTheRegisteredDefaultAndNotifiesOnce() {
    let suite = FoundationSuite()
    defer { suite.remove() }
    let defaults = suite.defaults
    defaults.register(defaults: [
      "od-tests-registered-name": "Registered",
      "od-tests-registered-optional": "RegisteredOptional",
    ])
    let settings = RegisteredFallbackSettings(userDefaults: defaults)
    #expect(settings.name == "Registered")
    defaults.set("Changed", forKey: "od-tests-registered-name")
    defaults.set("Hello", forKey: "od-tests-registered-optional")
    NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
    #expect(settings.name == "Changed")
    #expect(settings.optionalName == "Hello")
    let name = ChangeCounter(settings, \.name)
    let optionalName = ChangeCounter(settings, \.optionalName)
    suite.removeAndSynchronize("od-tests-registered-name", "od-tests-registered-optional")
    #expect(settings.name == "Registered")
    #expect(settings.optionalName == "RegisteredOptional")
    NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
    #expect(name.count == 1)
    #expect(optionalName.count == 1)
  }
}

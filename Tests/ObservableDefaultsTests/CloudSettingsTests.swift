import Foundation
import ObservableDefaults
import TestSupport
import Testing

/// `@ObservableCloud` objects on the cloud key-value store.
@Suite(.serialized) struct CloudSettingsTests {
  /// The containers' folder, removed with the suite's instance (one per test).
  let temporary: TemporaryFolder
  var folder: URL { temporary.url }

  init() throws { temporary = try TemporaryFolder(prefix: "od-cloud") }

  /// A new device on the tests' container.
  func device() -> NSUbiquitousKeyValueStore {
    NSUbiquitousKeyValueStore(
      backend: EmbeddedCloudBackend(root: folder, container: "tests", account: "tester"))
  }

  @Test func productionWritesReachTheStoreAndAnotherDevice() throws {
    let first = SyncedSettings(store: device())
    let second = SyncedSettings(store: device())
    let name = ChangeCounter(second, \.name)
    let age = ChangeCounter(second, \.age)
    first.name = "Ann"
    #expect(pollBlocking { second.name == "Ann" })
    #expect(name.count == 1)
    #expect(age.count == 0)
  }

  @Test func anotherProcessWritingReachesThePropertyOnce() throws {
    let settings = SyncedSettings(store: device())
    let name = ChangeCounter(settings, \.name)
    let age = ChangeCounter(settings, \.age)
    #expect(try runProbe("cloud-set", folder.path, "name", "From B") == 0)
    #expect(pollBlocking { settings.name == "From B" })
    #expect(name.count == 1)
    #expect(age.count == 0)
  }

  @Test func nilRemovesTheKeyInProductionAndInDevelopmentAlike() {
    let store = device()
    let production = SyncedSettings(store: store)
    production.nickname = nil
    #expect(production.nickname == "nick")
    #expect(store.object(forKey: "nickname") == nil)
    let development = DevelopmentCloudSettings()
    development.nickname = nil
    #expect(development.nickname == "nick")
  }

  @Test func developmentModeByArgumentKeepsValuesInMemory() {
    let settings = DevelopmentCloudSettings()
    let username = ChangeCounter(settings, \.username)
    settings.username = "Dev"
    settings.theme = .dark
    settings.profile = Profile(name: "P", age: 2)
    #expect(settings.username == "Dev")
    #expect(settings.theme == .dark)
    #expect(settings.profile == Profile(name: "P", age: 2))
    #expect(username.count == 1)
    #expect(settings._developmentMode_)
    #expect(NSUbiquitousKeyValueStore.inMemory().object(forKey: "user_display_name") == nil)
    #expect(DevelopmentCloudSettings().username == "Fatbobman")
  }

  /// In another process: the test process never changes its own environment.
  @Test func developmentModeByEnvironmentVariable() throws {
    let run = try probeOutput(["cloud-mode"], environment: ["OBSERVABLE_DEFAULTS_DEV_MODE": "true"])
    #expect(run.status == 0)
    #expect(run.output == "development true fresh 1\n")
    let preview = try probeOutput(["cloud-mode"], environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"])
    #expect(preview.output == "development true fresh 1\n")
  }

  @Test func observeFirstPersistsOnlyCloudBacked() {
    let settings = ObserveFirstCloudSettings()
    #expect(ObserveFirstCloudSettings._$settingsProperties.map(\.key) == [nil, "user_theme"])
    settings.theme = "dark"
    #expect(settings._$settingsStore.store.object(forKey: "user_theme") as? String == "dark")
    #expect(settings._$settingsStore.kind == .cloud)
  }
}

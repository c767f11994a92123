import ObservableDefaults
import ObservableDefaultsTesting
import Testing

/// A property's reset and migration as observers of the store are told them.
@Suite struct ResetWriterTests {
  private func property(_ name: String) -> SettingsProperty<RenamedSettings> {
    RenamedSettings._$settingsProperties.first { $0.name == name }!
  }

  @Test func aResetIsToldAsAReset() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = RenamedSettings(userDefaults: store)
    settings.displayName = "Bo"
    let log = DefaultsChangeLog()
    let observation = store.observe(log.handler)
    defer { observation.cancel() }
    try property("displayName").resetValue(of: settings)
    #expect(log.all.map(\.writer) == [.reset])
    #expect(log.all.map(\.origin) == [.thisProcess])
    settings.displayName = "Cy"
    #expect(log.all.map(\.writer) == [.reset, .thisProcess])
  }

  @Test func movingAValueFromItsPreviousKeyIsAMigration() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    store.set("Ann", forKey: "name")
    let settings = RenamedSettings(userDefaults: store)
    let log = DefaultsChangeLog()
    let observation = store.observe(log.handler)
    defer { observation.cancel() }
    #expect(try property("displayName").migrateStoredValue(of: settings))
    #expect(log.all.map(\.writer) == [.migration])
  }
}

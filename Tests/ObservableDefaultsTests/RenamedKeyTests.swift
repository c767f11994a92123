import Foundation
import ObservableDefaults
import Testing

@testable import ObservableDefaultsCore

/// `previousKeys:`: a renamed property reads its value under the newest key present, and its
/// first write (or an explicit migration) moves the value in one write of the file.
@Suite struct RenamedKeyTests {
  private func suite(with values: [String: Any]) throws -> TemporarySuite {
    let suite = TemporarySuite()
    _ = try PropertyListFile(url: suite.fileURL).apply(values.mapValues { .set($0) })
    return suite
  }

  private var displayNameProperty: SettingsProperty<RenamedSettings> {
    RenamedSettings._$settingsProperties.first { $0.name == "displayName" }!
  }

  @Test func readsTheValueUnderThePreviousKey() throws {
    let suite = try suite(with: ["name": "Ann"])
    #expect(RenamedSettings(userDefaults: suite.store()).displayName == "Ann")
  }

  @Test func theNewestPreviousKeyWins() throws {
    let suite = try suite(with: ["name": "Ann", "user_name": "Old Ann"])
    #expect(RenamedSettings(userDefaults: suite.store()).displayName == "Ann")
  }

  @Test func theKeyWinsOverEveryPreviousKey() throws {
    let suite = try suite(with: ["displayName": "Bo", "name": "Ann", "user_name": "Old Ann"])
    #expect(RenamedSettings(userDefaults: suite.store()).displayName == "Bo")
  }

  @Test func nothingStoredReadsTheDefault() throws {
    let suite = TemporarySuite()
    #expect(RenamedSettings(userDefaults: suite.store()).displayName == "Anonymous")
  }

  @Test func theFirstWriteMovesTheValueInOneFileWrite() throws {
    let suite = try suite(with: ["name": "Ann", "user_name": "Old Ann", "age": 30])
    let store = suite.store()
    let settings = RenamedSettings(userDefaults: store)
    let before = PropertyListCounters.counts(for: suite.fileURL).writes
    settings.displayName = "Bo"
    try store.flush()
    #expect(PropertyListCounters.counts(for: suite.fileURL).writes == before + 1)
    let values = try suite.fileValues()
    #expect(values["displayName"] as? String == "Bo")
    #expect(values["name"] == nil)
    #expect(values["user_name"] == nil)
    #expect(values["age"] as? Int == 30)
    #expect(settings.displayName == "Bo")
  }

  @Test func writingTheSameValueStillMovesIt() throws {
    let suite = try suite(with: ["name": "Ann"])
    let store = suite.store()
    let settings = RenamedSettings(userDefaults: store)
    settings.displayName = "Ann"
    try store.flush()
    let values = try suite.fileValues()
    #expect(values["displayName"] as? String == "Ann")
    #expect(values["name"] == nil)
  }

  @Test func aWriteRemovesAPreviousKeyAnOlderProgramWroteAgain() throws {
    let suite = try suite(with: ["displayName": "Bo", "name": "Ann"])
    let store = suite.store()
    let settings = RenamedSettings(userDefaults: store)
    settings.displayName = "Cy"
    try store.flush()
    #expect(try suite.fileValues().keys.sorted() == ["displayName"])
    #expect(try suite.fileValues()["displayName"] as? String == "Cy")
  }

  @Test func anExplicitMigrationMovesTheStoredValueAsItIs() throws {
    let suite = try suite(with: ["user_name": "Old Ann", "age": 30])
    let store = suite.store()
    let settings = RenamedSettings(userDefaults: store)
    #expect(try displayNameProperty.migrateStoredValue(of: settings))
    try store.flush()
    #expect(try suite.fileValues().keys.sorted() == ["age", "displayName"])
    #expect(try suite.fileValues()["displayName"] as? String == "Old Ann")
    #expect(settings.displayName == "Old Ann")
    #expect(try displayNameProperty.migrateStoredValue(of: settings) == false)
  }

  @Test func resettingRemovesThePreviousKeysToo() throws {
    let suite = try suite(with: ["displayName": "Bo", "name": "Ann"])
    let store = suite.store()
    let settings = RenamedSettings(userDefaults: store)
    try displayNameProperty.resetValue(of: settings)
    try store.flush()
    #expect(try suite.fileValues().isEmpty)
    #expect(settings.displayName == "Anonymous")
  }

  @Test func aChangeUnderAPreviousKeyReachesTheProperty() throws {
    let suite = TemporarySuite()
    let settings = RenamedSettings(userDefaults: suite.store())
    let counter = ChangeCounter(settings, \.displayName)
    suite.store().set("Ann", forKey: "name")
    #expect(settings.displayName == "Ann")
    #expect(counter.count == 1)
  }
}

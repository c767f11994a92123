import Foundation
import ObservableDefaults
import Testing

/// Version 2 of a program opening what version 1 stored (`Tests/Fixtures/migrations`): a renamed
/// key, an `Int` of seconds become a `Double` of minutes (B35), a Codable struct that gained a
/// non-optional field (B34). Each reads correctly and survives writes.
@Suite struct FixtureUpgradeTests {
  /// A suite holding a copy of the version 1 fixture.
  private func versionOneSuite() throws -> TemporarySuite {
    let suite = TemporarySuite()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent("Fixtures/migrations/com.example.evolving-v1.plist")
    try FileManager.default.copyItem(at: fixture, to: suite.fileURL)
    return suite
  }

  private let profileV2JSON = Data(#"{"level":1,"name":"Ann"}"#.utf8)

  @Test func versionOneValuesReadCorrectly() throws {
    let suite = try versionOneSuite()
    let settings = EvolvedSettings(userDefaults: suite.store())
    #expect(settings.timeoutMinutes == 5.0)
    #expect(settings.profile == PlayerProfile(name: "Ann", level: 1))
    #expect(settings.displayName == "Ann Smith")
    #expect(settings.age == 41)
  }

  @Test func writingAnotherPropertyKeepsTheVersionOneForms() throws {
    let suite = try versionOneSuite()
    let store = suite.store()
    EvolvedSettings(userDefaults: store).age = 42
    try store.flush()
    let values = try suite.fileValues()
    #expect(values.keys.sorted() == ["age", "name", "profile", "timeout"])
    #expect(values["timeout"] as? Int == 300)
    let again = EvolvedSettings(userDefaults: suite.store())
    #expect(again.timeoutMinutes == 5.0)
    #expect(again.profile == PlayerProfile(name: "Ann", level: 1))
  }

  @Test func writesStoreTheNewFormsAndSurviveARestart() throws {
    let suite = try versionOneSuite()
    let store = suite.store()
    let settings = EvolvedSettings(userDefaults: store)
    settings.timeoutMinutes = 7.5
    settings.profile.level = 3
    settings.displayName = "Ann"
    try store.flush()
    let values = try suite.fileValues()
    #expect(values.keys.sorted() == ["age", "displayName", "profile", "timeoutMinutes"])
    #expect(values["timeoutMinutes"] as? Double == 7.5)
    #expect(values["profile"] as? Data == Data(#"{"level":3,"name":"Ann"}"#.utf8))
    #expect(values["displayName"] as? String == "Ann")
    let restarted = EvolvedSettings(userDefaults: suite.store())
    #expect(restarted.timeoutMinutes == 7.5)
    #expect(restarted.profile == PlayerProfile(name: "Ann", level: 3))
    #expect(restarted.displayName == "Ann")
  }

  @Test func writingTheConvertedValueStoresItInTheNewForm() throws {
    let suite = try versionOneSuite()
    let store = suite.store()
    let settings = EvolvedSettings(userDefaults: store)
    settings.timeoutMinutes = 5.0
    settings.profile = PlayerProfile(name: "Ann", level: 1)
    try store.flush()
    let values = try suite.fileValues()
    #expect(values["timeoutMinutes"] as? Double == 5.0)
    #expect(values["timeout"] == nil)
    #expect(values["profile"] as? Data == profileV2JSON)
  }

  @Test func anExplicitMigrationConvertsEveryPropertyOnce() throws {
    let suite = try versionOneSuite()
    let store = suite.store()
    let settings = EvolvedSettings(userDefaults: store)
    #expect(try settings.migrateStoredValues() == ["timeoutMinutes", "profile", "displayName"])
    #expect(try settings.migrateStoredValues() == [])
    try store.flush()
    let values = try suite.fileValues()
    #expect(values.keys.sorted() == ["age", "displayName", "profile", "timeoutMinutes"])
    #expect(values["timeoutMinutes"] as? Double == 5.0)
    #expect(values["profile"] as? Data == profileV2JSON)
    #expect(values["displayName"] as? String == "Ann Smith")
    #expect(values["age"] as? Int == 41)
    #expect(settings.timeoutMinutes == 5.0)
  }

  @Test func aValueInTheNewFormIsNotConverted() throws {
    let suite = TemporarySuite()
    suite.store().set(profileV2JSON, forKey: "profile")
    suite.store().set(2.5, forKey: "timeoutMinutes")
    let settings = EvolvedSettings(userDefaults: suite.store())
    #expect(settings.profile == PlayerProfile(name: "Ann", level: 1))
    #expect(settings.timeoutMinutes == 2.5)
    #expect(try settings.migrateStoredValues() == [])
  }
}

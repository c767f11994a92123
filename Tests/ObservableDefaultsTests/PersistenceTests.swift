import Foundation
import ObservableDefaults
import Testing

/// Reading, writing and the fallback order of persisted properties.
@Suite struct PersistenceTests {
  @Test func declarationDefaultsBeforeAnythingIsStored() throws {
    let suite = TemporarySuite()
    let settings = Settings(userDefaults: suite.store())
    #expect(settings.name == "Fatbobman")
    #expect(settings.age == 20)
    #expect(settings.nickname == nil)
    #expect(try suite.fileValues().isEmpty)
  }

  @Test func writesReachTheFileUnderThePropertyName() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = Settings(userDefaults: store)
    settings.name = "Ann"
    settings.age = 31
    settings.nickname = "A"
    try store.flush()
    let values = try suite.fileValues()
    #expect(values["name"] as? String == "Ann")
    #expect(values["age"] as? Int == 31)
    #expect(values["nickname"] as? String == "A")
  }

  @Test func storedValuesAreReadByANewInstance() throws {
    let suite = TemporarySuite()
    suite.store().set("Bo", forKey: "name")
    suite.store().set(44, forKey: "age")
    let settings = Settings(userDefaults: suite.store())
    #expect(settings.name == "Bo")
    #expect(settings.age == 44)
  }

  @Test func nilRemovesTheKey() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = Settings(userDefaults: store)
    settings.nickname = "A"
    settings.nickname = nil
    try store.flush()
    #expect(settings.nickname == nil)
    #expect(try suite.fileValues()["nickname"] == nil)
    #expect(store.persistentValue(forKey: "nickname") == nil)
  }

  @Test func customKeyAndPrefixNameTheStoredKey() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let preferences = Preferences(userDefaults: store)
    preferences.volume = 0.75
    preferences.muted = true
    preferences.isEditing = true
    try store.flush()
    let values = try suite.fileValues()
    #expect(values["app_volume-level"] as? Double == 0.75)
    #expect(values["app_muted"] as? Bool == true)
    #expect(values.count == 2)
  }

  @Test func prefixGivenToTheInitializerReplacesTheMacroPrefix() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    Preferences(userDefaults: store, prefix: "other_").muted = true
    try store.flush()
    #expect(try suite.fileValues().keys.sorted() == ["other_muted"])
  }

  @Test func registeredDefaultComesBeforeTheDeclarationDefault() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let key = "registered-\(UUID().uuidString)"
    store.register(defaults: [key + "name": "Registered"])
    let settings = Settings(userDefaults: store, prefix: key)
    #expect(settings.name == "Registered")
    settings.name = "Stored"
    #expect(settings.name == "Stored")
    store.removeObject(forKey: key + "name")
    #expect(settings.name == "Registered")
  }

  @Test func writingTheCurrentValueWritesNothing() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = Settings(userDefaults: store)
    let counter = ChangeCounter(settings, \.name)
    settings.name = "Fatbobman"
    try store.flush()
    #expect(counter.count == 0)
    #expect(try suite.fileValues().isEmpty)
  }
}

/// A string property compares by Unicode scalars, as the file stores it.
@Suite struct ExactStringValueTests {
  @Test func aNameInTheOtherNormalizationFormIsWritten() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = Settings(userDefaults: store)
    settings.name = "Ren\u{E9}"
    settings.name = "Rene\u{301}"
    try store.flush()
    let stored = try #require(try suite.fileValues()["name"] as? String)
    #expect(Array(stored.unicodeScalars) == Array("Rene\u{301}".unicodeScalars))
    #expect(Array(settings.name.unicodeScalars) == Array("Rene\u{301}".unicodeScalars))
  }
}

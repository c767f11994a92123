import Foundation
import ObservableDefaults
import Testing

/// The documentation's examples behave as documented.
@Suite struct SeedExampleTests {
  let suite = TemporarySuite()

  @Test func customKeyObservableOnlyAndIgnore() throws {
    let store = suite.store()
    let settings = LocalSettings(userDefaults: store)
    settings.name = "Ann"
    settings.age = 3
    settings.height = 170
    settings.weight = 80
    try store.flush()
    let values = try suite.fileValues()
    #expect(values["firstName"] as? String == "Ann")
    #expect(values["age"] as? Int == 3)
    #expect(values.count == 2)
    #expect(LocalSettings._$settingsProperties.map(\.name) == ["name", "age", "height"])
    #expect(LocalSettings._$settingsProperties.map(\.key) == ["firstName", "age", nil])
  }

  @Test func observeFirstPersistsOnlyDefaultsBackedProperties() throws {
    let store = suite.store()
    let settings = ObserveFirstSettings(userDefaults: store)
    let name = ChangeCounter(settings, \.name)
    settings.name = "Ann"
    settings.age = 1
    settings.height = 180
    try store.flush()
    #expect(name.count == 1)
    #expect(try suite.fileValues().keys.sorted() == ["myHeight"])
    #expect(try suite.fileValues()["myHeight"] as? Int == 180)
  }

  @Test func manualInitializerWritesTheStoreAndKeepsTheDeclarationDefault() throws {
    let store = suite.store()
    let settings = ManualInitSettings(store: store)
    #expect(settings.name == "Set in init")
    #expect(store.string(forKey: "myApp_fullName") == "Set in init")
    let name = ChangeCounter(settings, \.name)
    store.removeObject(forKey: "myApp_fullName")
    #expect(settings.name == "Fatbobman")
    #expect(name.count == 0)  // ignoreExternalChanges: true
  }

  @Test func codableStructIsStoredAsJSON() throws {
    let store = suite.store()
    let local = LocalStore(userDefaults: store)
    local.people = People(name: "Bo", age: 11)
    let json = try #require(store.data(forKey: "people"))
    #expect(try JSONDecoder().decode(People.self, from: json) == People(name: "Bo", age: 11))
    #expect(LocalStore(userDefaults: suite.store()).people == People(name: "Bo", age: 11))
  }

  @Test func externalRemovalRevertsWithOneNotification() {
    let store = suite.store()
    let settings = LocalSettings(userDefaults: store)
    settings.age = 5
    let age = ChangeCounter(settings, \.age)
    let name = ChangeCounter(settings, \.name)
    store.removeObject(forKey: "age")
    #expect(settings.age == 109)
    #expect(age.count == 1)
    #expect(name.count == 0)
  }
}

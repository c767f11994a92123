import Foundation
import ObservableDefaults
import TestSupport
import Testing

/// Observers hear about exactly the properties that changed, whoever changed them.
@Suite struct ObservationTests {
  @Test func ownWriteNotifiesThatPropertyOnce() {
    let suite = TemporarySuite()
    let settings = Settings(userDefaults: suite.store())
    let name = ChangeCounter(settings, \.name)
    let age = ChangeCounter(settings, \.age)
    settings.name = "Ann"
    #expect(name.count == 1)
    #expect(age.count == 0)
  }

  @Test func writeThroughAnotherInstanceOfTheSuiteNotifiesAtOnce() {
    let suite = TemporarySuite()
    let first = Settings(userDefaults: suite.store())
    let second = Settings(userDefaults: suite.store())
    let name = ChangeCounter(first, \.name)
    let age = ChangeCounter(first, \.age)
    second.name = "Ann"
    #expect(first.name == "Ann")
    #expect(name.count == 1)
    #expect(age.count == 0)
  }

  @Test func directStoreWriteNotifiesTheProperty() {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = Settings(userDefaults: store)
    let age = ChangeCounter(settings, \.age)
    store.set(50, forKey: "age")
    #expect(settings.age == 50)
    #expect(age.count == 1)
    store.set(50, forKey: "age")
    #expect(age.count == 1)
  }

  @Test func observableOnlyPropertyNotifiesAndIsNotStored() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let preferences = Preferences(userDefaults: store)
    let editing = ChangeCounter(preferences, \.isEditing)
    let muted = ChangeCounter(preferences, \.muted)
    preferences.isEditing = true
    preferences.isEditing = true
    #expect(editing.count == 1)
    #expect(muted.count == 0)
    try store.flush()
    #expect(try suite.fileValues().isEmpty)
  }

  @Test func ignoreExternalChangesUpdatesValuesSilently() {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = Settings(userDefaults: store, ignoreExternalChanges: true)
    let name = ChangeCounter(settings, \.name)
    store.set("Outside", forKey: "name")
    #expect(settings.name == "Outside")
    #expect(name.count == 0)
    settings.name = "Inside"
    #expect(name.count == 1)
  }

  @Test func ignoredKeyPathsWorkWithAPrefix() {
    let suite = TemporarySuite()
    let store = suite.store()
    let preferences = Preferences(
      userDefaults: store, ignoredKeyPathsForExternalUpdates: [\Preferences.muted])
    let muted = ChangeCounter(preferences, \.muted)
    let volume = ChangeCounter(preferences, \.volume)
    store.set(true, forKey: "app_muted")
    store.set(0.25, forKey: "app_volume-level")
    #expect(preferences.muted == true)
    #expect(muted.count == 0)
    #expect(volume.count == 1)
  }
}

/// Changes made by another process arrive through the file watcher.
@Suite(.serialized) struct CrossProcessTests {
  @Test func anotherProcessWritingNameNotifiesNameOnly() throws {
    let suite = TemporarySuite()
    let settings = Settings(userDefaults: suite.store())
    let name = ChangeCounter(settings, \.name)
    let age = ChangeCounter(settings, \.age)
    #expect(try runProbe("set", suite.fileURL.path, "name", "From B") == 0)
    #expect(pollBlocking { settings.name == "From B" })
    #expect(pollBlocking { name.count == 1 })
    #expect(name.count == 1)
    #expect(age.count == 0)
  }

  @Test func anotherProcessRemovingAKeyRevertsToTheDefault() throws {
    let suite = TemporarySuite()
    let settings = Settings(userDefaults: suite.store())
    settings.age = 33
    try suite.store().flush()
    let age = ChangeCounter(settings, \.age)
    #expect(try runProbe("remove", suite.fileURL.path, "age") == 0)
    #expect(pollBlocking { settings.age == 20 })
    #expect(age.count == 1)
  }
}

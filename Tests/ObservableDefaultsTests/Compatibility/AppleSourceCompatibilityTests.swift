import Foundation
import ObservableDefaults
import Testing

/// What the declarations of `AppleSourceDeclarations.swift` store: the formats of the
/// Apple-platform library's "storage resolution" rules (its RawRepresentable/Codable and issue 26
/// tests, run here against a property-list suite).
@Suite struct AppleSourceCompatibilityTests {
  @Test func markerConformancesCompileForEveryTypeTheOriginalLists() {
    #expect(nativeDefaultsTypes.count == 15 && nativeDefaultsTypes.allSatisfy { $0 })
    #expect(nativeCloudTypes.count == 10 && nativeCloudTypes.allSatisfy { $0 })
  }

  @Test func theCloudStoreWorksThroughTheOriginalsStoreProtocol() {
    for store in cloudStores() {
      store.set(Int64(5), forKey: "count")
      store.set("text", forKey: "text")
      #expect(store.longLong(forKey: "count") == 5)
      #expect(store.string(forKey: "text") == "text")
      store.removeObject(forKey: "text")
      #expect(store.dictionaryRepresentation.keys.sorted() == ["count"])
    }
  }

  @Test func rawRepresentableTypesStoreTheirRawValue() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = CompatibilityDefaults(userDefaults: store)
    settings.token = RawStringToken(value: "updated")
    settings.hybrid = HybridIntToken(value: 42)
    settings.profile = PipeProfile(name: "Alice", age: 30)
    settings.status = .inactive
    #expect(store.object(forKey: "compat_token") as? String == "updated")
    #expect(store.object(forKey: "compat_hybrid") as? Int == 42)
    #expect(store.object(forKey: "compat_profile") as? String == "Alice|30")
    #expect(store.object(forKey: "compat_status") as? String == "inactive")
    let reread = CompatibilityDefaults(userDefaults: suite.store())
    #expect(reread.token == RawStringToken(value: "updated"))
    #expect(reread.hybrid == HybridIntToken(value: 42))
    #expect(reread.profile == PipeProfile(name: "Alice", age: 30))
    #expect(reread.status == .inactive)
  }

  @Test func optionalRawRepresentablesStoreTheRawValueAndNilRemovesTheKey() {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = CompatibilityDefaults(userDefaults: store)
    settings.optionalToken = RawStringToken(value: "optional")
    settings.optionalHybrid = HybridIntToken(value: 7)
    #expect(store.object(forKey: "compat_optionalToken") as? String == "optional")
    #expect(store.object(forKey: "compat_optionalHybrid") as? Int == 7)
    settings.optionalToken = nil
    settings.optionalHybrid = nil
    #expect(settings.optionalToken == nil)
    #expect(settings.optionalHybrid == nil)
    #expect(store.object(forKey: "compat_optionalToken") == nil)
    #expect(store.object(forKey: "compat_optionalHybrid") == nil)
  }

  @Test func optionalPropertyListValueWithADefaultRevertsToItOnNil() {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = CompatibilityDefaults(userDefaults: store)
    settings.optionalInt = 3
    #expect(store.object(forKey: "compat_optionalInt") as? Int == 3)
    settings.optionalInt = nil
    #expect(store.object(forKey: "compat_optionalInt") == nil)
    #expect(settings.optionalInt == 25)
  }

  @Test func legacyAndMarkedCodableValuesAreStoredAsJSON() throws {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = CompatibilityDefaults(userDefaults: store)
    settings.legacy = LegacyDefaultsValue(text: "updated")
    settings.marked = MarkedCodable(text: "mine")
    let legacy = try #require(store.object(forKey: "compat_legacy") as? Data)
    let marked = try #require(store.object(forKey: "compat_marked") as? Data)
    #expect(String(decoding: legacy, as: UTF8.self) == #"{"text":"updated"}"#)
    #expect(String(decoding: marked, as: UTF8.self) == #"{"text":"mine"}"#)
    #expect(CompatibilityDefaults(userDefaults: suite.store()).marked.text == "mine")
  }

  @Test func aValueStoredInItsOwnFormReadsBackAfterTheTypeBecameRawRepresentable() {
    let suite = TemporarySuite()
    let store = suite.store()
    LegacyStringDefaults(userDefaults: store).value = "legacy-v1"
    let migrated = MigratedDefaults(userDefaults: store)
    #expect(migrated.value == RawStringToken(value: "legacy-v1"))
    migrated.value = RawStringToken(value: "legacy-v2")
    #expect(store.object(forKey: "compat_value") as? String == "legacy-v2")
  }

  @Test func cloudConformancesStoreTheRawValueToo() {
    let settings = CompatibilityCloud()
    let store = AnySettings(settings).store.store
    settings.token = RawStringToken(value: "updated")
    settings.hybrid = HybridIntToken(value: 42)
    settings.profile = PipeProfile(name: "Alice", age: 30)
    settings.status = .inactive
    settings.optionalToken = RawStringToken(value: "optional")
    settings.optionalToken = nil
    settings.legacy = LegacyCloudValue(text: "updated")
    #expect(store.object(forKey: "compat_token") as? String == "updated")
    #expect(store.object(forKey: "compat_hybrid") as? Int == 42)
    #expect(store.object(forKey: "compat_profile") as? String == "Alice|30")
    #expect(store.object(forKey: "compat_status") as? String == "inactive")
    #expect(store.object(forKey: "compat_optionalToken") == nil)
    #expect(settings.optionalToken == nil)
    #expect(settings.legacy == LegacyCloudValue(text: "updated"))
    #expect(
      (store.object(forKey: "compat_legacy") as? Data).map { String(decoding: $0, as: UTF8.self) }
        == #"{"text":"updated"}"#)
  }

  @Test func cloudValuesTheCloudStoreDoesNotTakeAreStoredAsJSON() throws {
    let settings = CompatibilityCloud()
    let store = AnySettings(settings).store.store
    settings.small = 5
    settings.optionalSmall = 6
    settings.unsigned = 7
    settings.link = URL(string: "https://example.com/a?b=c")!
    settings.big = 8
    settings.scores = [0.5]
    settings.optionalName = nil
    func json(_ key: String) -> String? {
      (store.object(forKey: "compat_" + key) as? Data).map { String(decoding: $0, as: UTF8.self) }
    }
    #expect(json("small") == "5")
    #expect(json("optionalSmall") == "6")
    #expect(json("unsigned") == "7")
    #expect(json("link") == #""https:\/\/example.com\/a?b=c""#)
    #expect(store.object(forKey: "compat_big") as? Int == 8)
    #expect(store.object(forKey: "compat_scores") as? [Double] == [0.5])
    #expect(store.object(forKey: "compat_optionalName") == nil)
    #expect(
      settings.small == 5 && settings.optionalSmall == 6 && settings.unsigned == 7
        && settings.big == 8)
    #expect(settings.link == URL(string: "https://example.com/a?b=c")!)
    #expect(settings.optionalName == "name")
    settings.optionalSmall = nil
    #expect(store.object(forKey: "compat_optionalSmall") == nil)
    #expect(settings.optionalSmall == nil)
  }

  @Test func membersNamedLikeTheToolsDescriptionAreTheUsers() {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = UserNamedMembers(userDefaults: store)
    settings.settingsProperties = "changed"
    settings.settingsStore = 2
    settings.settingsRoot = true
    #expect(store.string(forKey: "settingsProperties") == "changed")
    #expect(store.integer(forKey: "settingsStore") == 2)
    #expect(store.bool(forKey: "settingsRoot"))
    #expect(
      AnySettings(settings).properties.map(\.name) == [
        "settingsProperties", "settingsStore", "settingsRoot",
      ])
    #expect(UserNamedMethods.settingsProperties == ["user", "properties"])
    #expect(UserNamedMethods().settingsStore() == "user store")
    #expect(AnySettings(UserNamedMethods()).properties.map(\.name) == ["value"])
  }
}

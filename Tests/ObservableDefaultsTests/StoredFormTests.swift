import Foundation
import ObservableDefaults
import Testing

/// `propertyListValue()` and `setValue(fromPropertyList:)`: tools read and write any property in
/// its stored form, through the property's codec, without knowing its type.
@Suite struct StoredFormTests {
  /// Kept to the test's end: a suite released at once removes its folder, which the object's
  /// later writes would make again.
  private let suite: TemporarySuite
  private let settings: TypeSettings

  init() {
    suite = TemporarySuite()
    settings = TypeSettings(userDefaults: suite.store())
  }

  private func property(_ name: String) throws -> AnySettingsProperty {
    try #require(AnySettings(settings).properties.first { $0.name == name })
  }

  @Test func anEnumerationIsSetFromItsRawValue() throws {
    let theme = try property("theme")
    #expect(theme.propertyListValue() as? String == "system")
    try theme.setValue(fromPropertyList: "dark")
    #expect(settings.theme == .dark)
    #expect(throws: SettingsValueError.undecodable(key: "theme", expected: "Theme")) {
      try theme.setValue(fromPropertyList: "purple")
    }
    #expect(settings.theme == .dark)
  }

  @Test func aCodableValueIsSetFromJSONData() throws {
    let profile = try property("profile")
    let json = try #require(profile.propertyListValue() as? Data)
    try profile.setValue(fromPropertyList: json)
    #expect(throws: SettingsValueError.self) {
      try profile.setValue(fromPropertyList: Data("[1]".utf8))
    }
  }

  /// Issue 25: the refusal of a `Codable` value names the field that is missing or of another
  /// type.
  @Test func aCodableValueMissingAFieldIsRefusedNamingTheField() throws {
    let profile = try property("profile")
    let expected = String(describing: Profile.self)
    #expect(
      throws: SettingsValueError.undecodable(
        key: "profile", expected: expected, reason: "the field 'age' is missing")
    ) {
      try profile.setValue(fromPropertyList: Data(#"{"name": "Ann"}"#.utf8))
    }
    #expect(
      throws: SettingsValueError.undecodable(
        key: "profile", expected: expected, reason: "'age' is not a Int")
    ) {
      try profile.setValue(fromPropertyList: Data(#"{"name": "Ann", "age": "old"}"#.utf8))
    }
    let error = SettingsValueError.undecodable(
      key: "profile", expected: "Profile", reason: "the field 'age' is missing")
    #expect(
      error.description
        == "'profile' holds Profile values; the value given does not decode as one: the field 'age' is missing"
    )
  }

  @Test func propertyListValuesRoundTrip() throws {
    let strings = try property("strings")
    try strings.setValue(fromPropertyList: ["a", "b"])
    #expect(settings.strings == ["a", "b"])
    #expect(strings.propertyListValue() as? [String] == ["a", "b"])
    try property("int8").setValue(fromPropertyList: 5)
    #expect(settings.int8 == 5)
  }

  @Test func nilEmptiesAnOptionalAndIsRefusedElsewhere() throws {
    let optionalString = try property("optionalString")
    try optionalString.setValue(fromPropertyList: "a")
    #expect(settings.optionalString == "a")
    #expect(optionalString.propertyListValue() as? String == "a")
    try optionalString.setValue(fromPropertyList: nil)
    #expect(settings.optionalString == nil)
    #expect(optionalString.propertyListValue() == nil)
    #expect(throws: SettingsValueError.undecodable(key: "int", expected: "Int")) {
      try property("int").setValue(fromPropertyList: nil)
    }
  }
}

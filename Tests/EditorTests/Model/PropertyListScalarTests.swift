import Foundation
import ObservableDefaultsCore
import SettingsEditor
import Testing

/// Typed text for raw scalar values and values by key path.
@Suite struct PropertyListScalarTests {
  @Test(arguments: [
    (PropertyListScalarType.string, "Bob Smith"), (.integer, "-42"),
    (.integer, "9223372036854775807"),
    (.integer, "9223372036854775808"), (.integer, "18446744073709551615"),
    (.real, "0.5909154415130615"),
    (.bool, "true"), (.date, "2023-01-08T19:59:26.426036Z"), (.date, "2014-02-23T13:04:19Z"),
    (.date, "1999-12-31T23:59:59.5Z"), (.data, "626f6f6bd8030000"),
  ])
  func textAndValueRoundTrip(type: PropertyListScalarType, text: String) throws {
    let value = try type.parse(text)
    #expect(PropertyListScalarType(of: value) == type)
    #expect(PropertyListScalarType.text(of: value) == text)
    #expect(propertyListValuesEqual(try type.parse(PropertyListScalarType.text(of: value)!), value))
  }

  @Test func integersAboveIntMaxAreUnsigned() throws {
    #expect(try PropertyListScalarType.integer.parse("9223372036854775808") as? UInt64 == 1 << 63)
    #expect(try PropertyListScalarType.integer.parse("12") as? Int == 12)
  }

  @Test func datesKeepEveryFractionDigitOfTheFixture() throws {
    let date = try #require(
      try PropertyListScalarType.date.parse("2023-01-08T19:59:26.426036Z") as? Date)
    #expect(date.timeIntervalSinceReferenceDate == 694900766.426036)
    let withOffset = try #require(
      try PropertyListScalarType.date.parse("2023-01-08T20:59:26.25+01:00") as? Date)
    #expect(withOffset.timeIntervalSinceReferenceDate == 694900766.25)
    // What `defaults read` prints, and a day (midnight UTC).
    let printed = try #require(
      try PropertyListScalarType.date.parse("2023-01-08 20:59:26 +0100") as? Date)
    #expect(printed.timeIntervalSinceReferenceDate == 694_900_766)
    let day = try #require(try PropertyListScalarType.date.parse("2023-01-08") as? Date)
    #expect(day.timeIntervalSinceReferenceDate == 694_828_800)
  }

  @Test(arguments: [
    (PropertyListScalarType.integer, "twenty"), (.integer, "1.5"),
    (.real, "inf"), (.real, "x"), (.bool, "maybe"), (.date, "2023-02-29"), (.date, "yesterday"),
    (.data, "abc"), (.data, "zz"),
  ])
  func invalidTextIsRefusedWithItsType(type: PropertyListScalarType, text: String) {
    #expect(throws: PropertyListScalarError(text: text, type: type)) { try type.parse(text) }
  }

  /// A whole number beyond a property list's integers is out of range, not "not an integer".
  @Test(arguments: ["18446744073709551616", "-9223372036854775809", "99999999999999999999"])
  func aWholeNumberTooLargeIsOutOfRange(text: String) {
    let error = PropertyListScalarError(text: text, type: .integer, isOutOfRange: true)
    #expect(throws: error) { try PropertyListScalarType.integer.parse(text) }
    #expect(
      error.description
        == "\"\(text)\" is out of range for an integer (-9223372036854775808 to 18446744073709551615)"
    )
  }

  @Test func dataAcceptsCommonHexForms() throws {
    for text in ["0a1b", "0x0a1b", "<0a1b>", "0a 1b"] {
      #expect(try PropertyListScalarType.data.parse(text) as? Data == Data([0x0a, 0x1b]))
    }
  }

  @Test func errorsSayWhatIsExpected() {
    #expect(
      PropertyListScalarError(text: "maybe", type: .bool).description
        == "\"maybe\" is not a bool (use true, false, yes, no, 1 or 0)")
  }

  @Test func containersHaveNoScalarType() {
    #expect(PropertyListScalarType(of: [1, 2] as [Any]) == nil)
    #expect(PropertyListScalarType(of: ["a": 1] as [String: Any]) == nil)
    #expect(PropertyListScalarType.text(of: [Any]()) == nil)
  }

  @Test func valuesByKeyPath() throws {
    let root: [PropertyListKey: Any] = [
      "list": [["name": "a"] as [String: Any], 2] as [Any], "flag": true,
    ]
    #expect(PropertyListTree.value(at: ["list", 0, "name"], in: root) as? String == "a")
    #expect(PropertyListTree.value(at: ["list", 5], in: root) == nil)
    #expect(PropertyListTree.value(at: ["flag", "x"], in: root) == nil)
    let edited = try PropertyListTree.setting("b", at: ["list", 0, "name"], in: root)
    #expect(PropertyListTree.value(at: ["list", 0, "name"], in: edited) as? String == "b")
    #expect(PropertyListTree.value(at: ["list", 1], in: edited) as? Int == 2)
    #expect(throws: PropertyListPathError(path: ["list", 9])) {
      try PropertyListTree.setting(1, at: ["list", 9], in: root)
    }
    #expect(PropertyListPathError(path: ["list", 9]).description == "no value at list / [9]")
  }
}

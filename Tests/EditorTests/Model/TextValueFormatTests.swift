import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import Testing

@testable import SettingsEditor

/// Text typed into the line editor becomes a typed value, or a refusal naming the type and why.
@Suite struct TextValueFormatTests {
  @Test func integersAreCheckedAgainstTheirWidth() throws {
    let int8 = TextValueFormat(base: .integer(name: "Int8", bitWidth: 8, signed: true))
    #expect(try int8.parse("-128") as? Int8 == -128)
    #expect(throws: ValueInputError(text: "128", typeName: "Int8", reason: "out of range -128…127"))
    {
      try int8.parse("128")
    }
    #expect(throws: ValueInputError(text: "1.5", typeName: "Int8", reason: "not a whole number")) {
      try int8.parse("1.5")
    }
  }

  /// Bug 17: a `Date` row opened its editor with whole seconds, so Enter on an unchanged date
  /// dropped its fraction. One form everywhere: the row, the field, the parser.
  @Test func aDateKeepsItsFractionThroughTheField() throws {
    let date = Date(timeIntervalSinceReferenceDate: 694_900_766.426036)
    let formatting = ValueFormatting(type: .date, typeName: "Date")
    #expect(formatting.text(of: date, stored: date) == "2023-01-08T19:59:26.426036Z")
    guard case .text(let format, let text) = formatting.editing(value: date, stored: date) else {
      Issue.record("a date is edited as text")
      return
    }
    #expect(text == "2023-01-08T19:59:26.426036Z")
    #expect(try format.parse(text) as? Date == date)
  }

  @Test func datesAreISO8601() throws {
    let date = TextValueFormat(base: .date)
    #expect(try date.parse("1970-01-02T00:00:00Z") as? Date == Date(timeIntervalSince1970: 86_400))
    #expect(throws: ValueInputError.self) { try date.parse("yesterday") }
  }

  @Test func urlsNeedAScheme() throws {
    let url = TextValueFormat(base: .url, isOptional: true)
    #expect(try url.parse("https://a.example") as? URL? == URL(string: "https://a.example"))
    #expect(try url.parse("") as? URL? == .some(nil), "empty text is nil for an optional")
    #expect(throws: ValueInputError.self) { try url.parse("not a url") }
  }

  @Test func jsonIsParsedBeforeAnythingIsWritten() throws {
    let json = TextValueFormat(base: .json)
    let value = try #require(try json.parse(#"{"a": [1, 2]}"#) as? JSONValue)
    #expect((value.object as? [String: Any])?.keys.first == "a")
    let error = #expect(throws: ValueInputError.self) { try json.parse(#"{"a": "#) }
    #expect(error?.description.hasPrefix("not valid JSON") == true)
  }

  @Test func storedFormsShowAsJSON() {
    #expect(
      JSONValue.text(ofStored: ["b": 1, "a": [true]] as [String: Any]) == #"{"a":[true],"b":1}"#)
    #expect(JSONValue.text(ofStored: Data(#"{"w":1}"#.utf8)) == #"{"w":1}"#)
    #expect(JSONValue.text(ofStored: [Date()]) == nil, "JSON has no dates")
  }
}

/// Column arithmetic of the detail pane's wrapping.
@Suite struct TextWrapTests {
  @Test func prosBreaksAfterSpacesAndLongWordsBetweenCharacters() {
    #expect(TextWidth.wrap("one two three four", width: 9) == ["one two ", "three ", "four"])
    #expect(TextWidth.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    #expect(TextWidth.wrap("", width: 4) == [""])
  }

  @Test func wideCharactersAreNeverSplit() {
    // Widths come from the locale's wcwidth: 2 for 日 in a UTF-8 locale.
    setlocale(LC_CTYPE, "C.UTF-8")
    let lines = TextWidth.wrap("日本語です", width: 5)
    #expect(lines.joined() == "日本語です")
    #expect(lines.allSatisfy { TextWidth.columns($0) <= 5 })
    #expect(TextWidth.wrap("a\nb", width: 10) == [#"a\nb"#], "control characters stay escaped")
  }
}

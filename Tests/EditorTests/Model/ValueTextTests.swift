import Foundation
import Testing

@testable import ObservableDefaultsCore
@testable import SettingsEditor

/// The text forms of dates and numbers that the editor's fields and `write` share: a date that
/// does not exist is refused (Foundation's parser moves it on), a number past its type's range
/// is refused as such.
@Suite struct ValueTextTests {
  @Test(arguments: [
    "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-13-01T00:00:00Z",
    "2024-00-10T00:00:00Z", "2024-01-00T00:00:00Z", "2024-01-31T24:00:00Z", "2024-01-31T23:60:00Z",
    "2024-01-31T23:59:60Z", "2024-01-31T23:59:59+24:00", "2024-01-31T23:59:59+01:60",
  ])
  func aDayOrTimeThatDoesNotExistIsNoDate(text: String) {
    #expect(PropertyListDateText.date(from: text) == nil)
  }

  @Test func daysAndTimesThatExistAreRead() throws {
    let cases: [(String, TimeInterval)] = [
      ("2024-02-29T00:00:00Z", 1_709_164_800), ("2000-02-29T23:59:59Z", 951_868_799),
      ("1900-03-01T00:00:00Z", -2_203_891_200), ("2024-12-31T23:59:59-01:30", 1_735_694_999),
    ]
    for (text, seconds) in cases {
      #expect(PropertyListDateText.date(from: text)?.timeIntervalSince1970 == seconds, "\(text)")
    }
    #expect(PropertyListDateText.date(from: "1900-02-29T00:00:00Z") == nil, "1900 is no leap year")
  }

  @Test func aFloatPastItsRangeIsRefusedAsSuch() {
    let float = TextValueFormat(base: .float)
    #expect(
      throws: ValueInputError(
        text: "1e39", typeName: "Float", reason: "outside Float's range (±3.4028235e+38)")
    ) {
      try float.parse("1e39")
    }
    #expect(throws: ValueInputError(text: "inf", typeName: "Float", reason: "not a finite number"))
    {
      try float.parse("inf")
    }
    #expect(throws: ValueInputError(text: "x", typeName: "Double", reason: "not a number")) {
      try TextValueFormat(base: .double).parse("x")
    }
    #expect((try? float.parse("3.4e38")) as? Float == 3.4e38)
  }
}

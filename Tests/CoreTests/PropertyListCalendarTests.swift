import Foundation
import Testing

@testable import ObservableDefaultsCore

/// An XML property list's `<date>` text is read and written in CoreFoundation's calendar
/// (proleptic Gregorian), as `PropertyListSerialization` reads and writes it, by the reader, the
/// writer and the editor's text alike: a date before 1582 reads back as the date that was
/// written. A date whose year the text cannot hold is refused, not written as another.
@Suite struct PropertyListCalendarTests {
  /// The `<date>` text of `date` as CoreFoundation writes it.
  private static func foundationText(of date: Date) throws -> String {
    let data = try PropertyListSerialization.data(
      fromPropertyList: [date], format: .xml, options: 0)
    let text = String(decoding: data, as: UTF8.self)
    let line = try #require(text.split(separator: "\n").first { $0.contains("<date>") })
    return String(line.dropFirst("\t<date>".count).dropLast("</date>".count))
  }

  /// The date CoreFoundation reads from `<date>text</date>`.
  private static func foundationDate(from text: String) throws -> Date? {
    let xml = "<plist version=\"1.0\"><array><date>\(text)</date></array></plist>"
    let root = try PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil)
    return (root as? [Date])?.first
  }

  /// The `<date>` text the package's writer writes for `date`.
  private static func text(of date: Date) throws -> String {
    let document = PropertyListDocument(values: ["d": date], format: .xml)
    let text = String(decoding: try PropertyListEncoding.data(of: document), as: UTF8.self)
    let line = try #require(text.split(separator: "\n").first { $0.contains("<date>") })
    return String(line.dropFirst("\t<date>".count).dropLast("</date>".count))
  }

  /// The date the package's reader reads from `<date>text</date>`.
  private static func date(from text: String) throws -> Date? {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>d</key>
      \t<date>\(text)</date>
      </dict>
      </plist>
      """
    let file = PropertyListFile(url: URL(fileURLWithPath: "/nonexistent/dates.plist"))
    return try file.document(from: Data(xml.utf8)).values["d"] as? Date
  }

  @Test func datesBeforeTheGregorianReformAreProlepticAsCoreFoundationReadsThem() throws {
    let cases: [(text: String, seconds: TimeInterval)] = [
      ("0000-01-01T00:00:00Z", -63_145_526_400), ("0000-02-29T00:00:00Z", -63_140_428_800),
      ("0001-01-01T00:00:00Z", -63_113_904_000), ("1500-03-01T00:00:00Z", -15_804_979_200),
      ("1582-10-10T00:00:00Z", -13_198_032_000), ("1600-02-29T00:00:00Z", -12_649_305_600),
      ("2001-01-01T00:00:00Z", 0), ("2024-02-29T23:59:59Z", 730_943_999),
      ("999999-12-31T23:59:59Z", 31_493_806_473_599),
    ]
    for (text, seconds) in cases {
      let date = Date(timeIntervalSinceReferenceDate: seconds)
      #expect(try Self.foundationDate(from: text) == date, "\(text)")
      #expect(try Self.foundationText(of: date) == text)
      #expect(try Self.date(from: text) == date, "\(text)")
      #expect(try Self.text(of: date) == text)
      #expect(PropertyListDateText.text(of: date) == text)
      #expect(PropertyListDateText.date(from: text) == date, "\(text)")
    }
  }

  /// A day the calendar does not have is refused (CoreFoundation moves `1500-02-29` on to
  /// March 1st; the package's reader refuses such a day, as it refuses `2024-01-32`).
  @Test func aDayTheCalendarDoesNotHaveIsRefused() throws {
    for text in ["1500-02-29T00:00:00Z", "0001-02-29T00:00:00Z", "1582-10-32T00:00:00Z"] {
      #expect(throws: PropertyListError.self, "\(text)") { try Self.date(from: text) }
      #expect(PropertyListDateText.date(from: text) == nil, "\(text)")
    }
  }

  /// 3,000 whole seconds from year 0 to 999999, a third of them in the first two centuries: the
  /// package writes CoreFoundation's text for each, and reads it back as CoreFoundation does.
  @Test func textAndDatesAreCoreFoundationsOverTheYears() throws {
    var generator = SystemRandomNumberGenerator()
    let spans: [ClosedRange<Double>] = [
      -63_145_526_400...31_493_806_473_599, -63_145_526_400...(-56_000_000_000),
      -14_000_000_000...1_000_000_000,
    ]
    for index in 0..<3_000 {
      let seconds = Double.random(in: spans[index % spans.count], using: &generator)
      let date = Date(timeIntervalSinceReferenceDate: seconds.rounded(.down))
      let text = try Self.foundationText(of: date)
      #expect(try Self.text(of: date) == text)
      #expect(try Self.date(from: text) == Self.foundationDate(from: text), "\(text)")
      #expect(try Self.date(from: text) == date, "\(text)")
    }
  }

  /// A date the text cannot hold is refused with a reason, where CoreFoundation writes `-001-…`
  /// (which the package's reader refuses) or, for a date that is not finite, `…T24:60:…`; a
  /// binary property list holds it, and the editor shows and reads it as its seconds.
  @Test func aDateOutsideTheYearsOfTheTextIsRefused() {
    for seconds in [-1e13, -63_145_526_401, 31_493_806_473_600, .infinity, .nan, 1e300] {
      let document = PropertyListDocument(
        values: ["d": Date(timeIntervalSinceReferenceDate: seconds)], format: .xml)
      #expect(
        throws: PropertyListEncodingFailure(
          reason: "the date \(seconds) s from 2001-01-01T00:00:00Z is outside the years "
            + "0–999999 an XML property list's date holds")
      ) { try PropertyListEncoding.data(of: document) }
      // The editor's text for it is its seconds, which read back as the same date.
      let text = PropertyListDateText.text(of: Date(timeIntervalSinceReferenceDate: seconds))
      #expect(text == "\(seconds) s from 2001-01-01T00:00:00Z")
      // (A date that is not a finite time is refused by every writer: none is read.)
      let read = PropertyListDateText.date(from: text)?.timeIntervalSinceReferenceDate
      #expect(seconds.isFinite ? read == seconds : read == nil, "\(text)")
    }
  }

  /// The editor's text of a date reads back as the same `Double`, bit for bit: fractions before
  /// 2001 (`2000-12-31T23:59:59.7Z` is −0.3 s), −0, and fractions too small for the form (as
  /// seconds); 20,000 random times besides.
  @Test func theTextOfADateReadsBackAsTheSameSeconds() {
    var generator = SystemRandomNumberGenerator()
    var cases: [Double] = [
      -0.3, -5.25, -1e-6, -0.0, 5e-324, -5e-324, 1e-300, 0.5, 694_900_766.426036,
      -3_000_000_000.125, -63_145_526_400.5, 31_493_806_473_599.5,
    ]
    for index in 0..<20_000 {
      let span: ClosedRange<Double> =
        switch index % 4 {
        case 0: -2e6...2e6
        case 1: -63_145_526_400...31_493_806_473_599
        case 2: -1...1
        default: -1e9...1e9
        }
      let seconds = Double.random(in: span, using: &generator)
      // Milliseconds and microseconds, as programs store them, and the full Double.
      cases += [seconds, (seconds * 1_000).rounded() / 1_000, (seconds * 1e6).rounded() / 1e6]
    }
    var failures = 0
    for seconds in cases {
      let text = PropertyListDateText.text(of: Date(timeIntervalSinceReferenceDate: seconds))
      let read = PropertyListDateText.date(from: text)?.timeIntervalSinceReferenceDate
      if read?.bitPattern != seconds.bitPattern {
        failures += 1
        if failures <= 5 { Issue.record("\(seconds) → \(text) → \(String(describing: read))") }
      }
    }
    #expect(failures == 0)
    #expect(
      PropertyListDateText.text(of: Date(timeIntervalSinceReferenceDate: -0.3))
        == "2000-12-31T23:59:59.7Z")
    #expect(
      PropertyListDateText.text(of: Date(timeIntervalSinceReferenceDate: 5e-324))
        == "5e-324 s from 2001-01-01T00:00:00Z")
    for text in [
      "nan s from 2001-01-01T00:00:00Z", "inf s from 2001-01-01T00:00:00Z",
      "0x10 s from 2001-01-01T00:00:00Z", "+5 s from 2001-01-01T00:00:00Z", "5 s from 2001-01-01",
    ] {
      #expect(PropertyListDateText.date(from: text) == nil, "\(text)")
    }
  }
}

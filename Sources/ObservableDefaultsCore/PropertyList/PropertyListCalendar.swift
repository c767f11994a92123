/// The calendar of a property list's dates as text, as CoreFoundation reads and writes them: the
/// proleptic Gregorian calendar (Gregorian leap years before 1582 too), years counted from 0
/// (1 BC), times in UTC.
///
/// CoreFoundation's XML reader and writer (`CFPropertyList.c`, with `CFGregorianDate`), which
/// `PropertyListSerialization`, `UserDefaults` and Apple's preferences use, convert this way:
/// `<date>0001-01-01T00:00:00Z</date>` is −63,113,904,000 s from 2001-01-01. Foundation's
/// `PropertyListEncoder` and `PropertyListDecoder` (ICU's calendar, Julian before 1582-10-15)
/// read and write those early dates 2 to 10 days apart from it; this follows CoreFoundation.
/// One home for the conversion, so the XML reader, the XML writer and the editor's text agree.
package enum PropertyListCalendar {
  /// The years a date's text holds: four to six digits, no sign (the XML reader's form).
  package static let years = 0...999_999

  /// A date's fields in UTC.
  package struct Fields: Equatable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int
  }

  /// The whole seconds since 2001-01-01T00:00:00Z of `fields`; nil when they name no day or time
  /// of the calendar (a day past its month's end, `24:00`, a 60th second) or a year outside
  /// ``years``.
  package static func seconds(of fields: Fields) -> Int? {
    guard years.contains(fields.year), (1...12).contains(fields.month),
      (1...days(inMonth: fields.month, of: fields.year)).contains(fields.day),
      (0..<24).contains(fields.hour), (0..<60).contains(fields.minute),
      (0..<60).contains(fields.second)
    else { return nil }
    let days = daysSinceReference(fields.year, fields.month, fields.day)
    return days * 86_400 + fields.hour * 3_600 + fields.minute * 60 + fields.second
  }

  /// The fields of the whole second at or before `seconds` (since 2001-01-01T00:00:00Z); nil
  /// when it is not finite or its year is outside ``years``.
  package static func fields(of seconds: Double) -> Fields? {
    // ±3.2e13 s is past the years either way and keeps the conversion to Int exact.
    guard seconds.isFinite, abs(seconds) < 3.2e13 else { return nil }
    let whole = Int(seconds.rounded(.down))
    let (days, second) = floorDivision(whole, 86_400)
    var fields = civil(daysSinceReference: days)
    guard years.contains(fields.year) else { return nil }
    (fields.hour, fields.minute, fields.second) = (second / 3_600, second / 60 % 60, second % 60)
    return fields
  }

  /// `fields` as `YYYY-MM-DDTHH:MM:SSZ` (the year with four to six digits).
  package static func text(of fields: Fields) -> String {
    func digits(_ number: Int, _ count: Int) -> String {
      let text = String(number)
      return String(repeating: "0", count: max(0, count - text.count)) + text
    }
    return digits(fields.year, 4) + "-" + digits(fields.month, 2) + "-" + digits(fields.day, 2)
      + "T" + digits(fields.hour, 2) + ":" + digits(fields.minute, 2) + ":"
      + digits(fields.second, 2) + "Z"
  }

  /// The number of days of `month` (1…12) of `year`.
  private static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The days from 0000-03-01 to 2001-01-01.
  private static let referenceDays = 730_791

  /// The days from 2001-01-01 to a date of a year ≥ 0, counted in 400-year eras of 146,097 days
  /// from 0000-03-01, so February is each count's last month (the arithmetic of Howard
  /// Hinnant's `days_from_civil`, "chrono-Compatible Low-Level Date Algorithms").
  private static func daysSinceReference(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let year = month <= 2 ? year - 1 : year
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - referenceDays
  }

  /// The date `days` after 2001-01-01 (Hinnant's `civil_from_days`).
  private static func civil(daysSinceReference days: Int) -> Fields {
    let (era, dayOfEra) = floorDivision(days + referenceDays, 146_097)
    let yearOfEra =
      (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = era * 400 + yearOfEra + (month <= 2 ? 1 : 0)
    return Fields(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
  }

  /// `dividend` divided by a positive `divisor`, rounded down, and its non-negative remainder.
  private static func floorDivision(_ dividend: Int, _ divisor: Int) -> (Int, Int) {
    let remainder = dividend % divisor
    return remainder < 0
      ? (dividend / divisor - 1, remainder + divisor) : (dividend / divisor, remainder)
  }
}

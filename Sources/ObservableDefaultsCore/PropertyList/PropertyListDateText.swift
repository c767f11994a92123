package import Foundation

/// Dates as ISO 8601 text in UTC that keeps every digit of the seconds' fraction a property list
/// holds, so text → date → text and date → text → date are exact, in the calendar of a property
/// list's `<date>` (``PropertyListCalendar``: CoreFoundation's, proleptic Gregorian).
///
/// `Date.ISO8601FormatStyle` keeps only milliseconds; property lists store a `Double` of
/// seconds since 2001-01-01, often with microseconds (`694900766.426036`).
package enum PropertyListDateText {
  /// `2023-01-08T19:59:26.426036Z`: the whole seconds, then the fraction of the shortest decimal
  /// that reads back as the same `Double`. A date this form cannot give exactly is its seconds,
  /// `-1e+13 s from 2001-01-01T00:00:00Z`: outside the years 0–999999 (a binary property list
  /// can hold it), not finite, −0, or a fraction whose shortest decimal has an exponent
  /// (`5e-324`).
  package static func text(of date: Date) -> String {
    let seconds = date.timeIntervalSinceReferenceDate
    let whole = seconds.rounded(.down)
    guard let fields = PropertyListCalendar.fields(of: seconds),
      seconds != 0 || seconds.sign == .plus
    else { return secondsText(seconds) }
    let base = PropertyListCalendar.text(of: fields)
    guard seconds != whole else { return base }
    // The shortest decimal of the seconds' size: its fraction, or (before 2001) the fraction
    // that takes it up from the whole second before.
    let magnitude = "\(abs(seconds))"
    guard !magnitude.contains("e"), let dot = magnitude.firstIndex(of: ".") else {
      return secondsText(seconds)
    }
    let digits = String(magnitude[magnitude.index(after: dot)...])
    return String(base.dropLast()) + "." + (seconds > 0 ? digits : complement(digits)) + "Z"
  }

  /// The date of ISO 8601 text (a year of four to six digits) with an optional fraction of any
  /// length and a `Z` or `±hh:mm` zone, or of the seconds form ``text(of:)`` gives (a finite
  /// decimal number); nil when it is neither, or names a day or time that does not exist
  /// (`2024-02-30`, `25:61`): Foundation's parser would move those on to a later date.
  package static func date(from text: String) -> Date? {
    if let match = text.wholeMatch(
      of: /(?<seconds>-?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?) s from 2001-01-01T00:00:00Z/)
    {
      return Double(match.seconds).flatMap {
        $0.isFinite ? Date(timeIntervalSinceReferenceDate: $0) : nil
      }
    }
    guard
      let match = text.wholeMatch(
        of:
          /(?<year>[0-9]{4,6})-(?<month>[0-9]{2})-(?<day>[0-9]{2})T(?<hour>[0-9]{2}):(?<minute>[0-9]{2}):(?<second>[0-9]{2})(?:\.(?<fraction>[0-9]+))?(?<zone>Z|(?<sign>[+-])(?<zoneHours>[0-9]{2}):?(?<zoneMinutes>[0-9]{2}))/
      ),
      let year = Int(match.year), let month = Int(match.month), let day = Int(match.day),
      let hour = Int(match.hour), let minute = Int(match.minute), let second = Int(match.second),
      let zoneHours = Int(match.zoneHours ?? "0"), zoneHours < 24,
      let zoneMinutes = Int(match.zoneMinutes ?? "0"), zoneMinutes < 60,
      let local = PropertyListCalendar.seconds(
        of: .init(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    else { return nil }
    let offset = (zoneHours * 3_600 + zoneMinutes * 60) * (match.sign == "-" ? -1 : 1)
    let whole = local - offset
    guard let fraction = match.fraction, fraction.contains(where: { $0 != "0" }) else {
      return Date(timeIntervalSinceReferenceDate: Double(whole))
    }
    // Whole and fraction read as one decimal, so the nearest Double is found, not a sum of two:
    // before 2001, -5 and .25 are -4.75.
    let decimal = whole >= 0 ? "\(whole).\(fraction)" : "-\(-whole - 1).\(complement(fraction))"
    return Double(decimal).map(Date.init(timeIntervalSinceReferenceDate:))
  }

  /// `-1e+13 s from 2001-01-01T00:00:00Z`.
  private static func secondsText(_ seconds: Double) -> String {
    "\(seconds) s from 2001-01-01T00:00:00Z"
  }

  /// The fraction digits of 1 − 0.`digits` (`25` → `75`, `3` → `7`), as many as `digits` has
  /// (not all zeros): what a fraction after a negative whole second is from the next one up.
  private static func complement(_ digits: some StringProtocol) -> String {
    var result = Array(digits.utf8)
    let zero = UInt8(ascii: "0")
    guard let last = result.lastIndex(where: { $0 != zero }) else { return String(digits) }
    for index in result.indices {
      if index < last {
        result[index] = zero + 9 - (result[index] - zero)
      } else if index == last {
        result[index] = zero + 10 - (result[index] - zero)
      } else {
        result[index] = zero
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}

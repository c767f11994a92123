package import Foundation

/// Dates as ISO 8601 text in UTC that keeps every digit of the seconds' fraction a property list
/// holds, so text → date → text and date → text → date are exact, in the calendar of a property
/// list's `<date>` (``PropertyListCalendar``: CoreFoundation's, proleptic Gregorian).
///
/// `Date.ISO8601FormatStyle` keeps only milliseconds; property lists store a `Double` of
/// seconds since 2001-01-01, often with microseconds (`694900766.426036`).
package enum PropertyListDateText {
  /// `2023-01-08T19:59:26.426036Z`: the whole seconds, then the shortest fraction that reads back
  /// as the same `Double`. A date outside the years 0–999999 (or not finite), which a binary
  /// property list can hold, is its seconds: `-1e+13 s from 2001-01-01T00:00:00Z`.
  package static func text(of date: Date) -> String {
    let seconds = date.timeIntervalSinceReferenceDate
    guard let fields = PropertyListCalendar.fields(of: seconds) else {
      return "\(seconds) s from 2001-01-01T00:00:00Z"
    }
    let base = PropertyListCalendar.text(of: fields)
    let whole = seconds.rounded(.down)
    guard seconds != whole else { return base }
    return String(base.dropLast()) + "." + fractionDigits(seconds, whole: whole) + "Z"
  }

  /// The date of ISO 8601 text (a year of four to six digits) with an optional fraction of any
  /// length and a `Z` or `±hh:mm` zone, or of the seconds form ``text(of:)`` gives a date outside
  /// those years; nil when it is neither, or names a day or time that does not exist
  /// (`2024-02-30`, `25:61`): Foundation's parser would move those on to a later date.
  package static func date(from text: String) -> Date? {
    if let match = text.wholeMatch(of: /(?<seconds>[^ ]+) s from 2001-01-01T00:00:00Z/) {
      return Double(match.seconds).map(Date.init(timeIntervalSinceReferenceDate:))
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
    guard let fraction = match.fraction else {
      return Date(timeIntervalSinceReferenceDate: Double(whole))
    }
    // Parse whole and fraction as one decimal so the nearest Double is found, not a sum of two.
    let seconds =
      whole >= 0
      ? Double("\(whole).\(fraction)") : Double("0.\(fraction)").map { Double(whole) + $0 }
    return seconds.map(Date.init(timeIntervalSinceReferenceDate:))
  }

  private static func fractionDigits(_ seconds: Double, whole: Double) -> String {
    let shortest = "\(seconds)"
    if seconds > 0, !shortest.contains("e"), let dot = shortest.firstIndex(of: ".") {
      return String(shortest[shortest.index(after: dot)...])
    }
    let fraction = String(format: "%.9f", seconds - whole).dropFirst(2)
    return String(fraction.reversed().drop { $0 == "0" }.reversed())
  }
}

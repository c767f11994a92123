package import Foundation

/// Dates as ISO 8601 text in UTC that keeps every digit of the seconds' fraction a property list
/// holds, so text → date → text and date → text → date are exact.
///
/// `Date.ISO8601FormatStyle` keeps only milliseconds; property lists store a `Double` of
/// seconds since 2001-01-01, often with microseconds (`694900766.426036`).
package enum PropertyListDateText {
  private static let wholeSeconds = Date.ISO8601FormatStyle(timeZone: .gmt)

  /// `2023-01-08T19:59:26.426036Z`: the whole seconds, then the shortest fraction that reads back
  /// as the same `Double`.
  package static func text(of date: Date) -> String {
    let seconds = date.timeIntervalSinceReferenceDate
    let whole = seconds.rounded(.down)
    let base = wholeSeconds.format(Date(timeIntervalSinceReferenceDate: whole))
    guard seconds != whole else { return base }
    return String(base.dropLast()) + "." + fractionDigits(seconds, whole: whole) + "Z"
  }

  /// The date of ISO 8601 text with an optional fraction of any length and a `Z` or `±hh:mm`
  /// zone; nil when it is not such a date, or names a day or time that does not exist
  /// (`2024-02-30`, `25:61`): Foundation's parser would move those on to a later date.
  package static func date(from text: String) -> Date? {
    guard
      let match = text.wholeMatch(
        of:
          /(?<year>[0-9]{4})-(?<month>[0-9]{2})-(?<day>[0-9]{2})T(?<hour>[0-9]{2}):(?<minute>[0-9]{2}):(?<second>[0-9]{2})(?:\.(?<fraction>[0-9]+))?(?<zone>Z|[+-](?<zoneHours>[0-9]{2}):?(?<zoneMinutes>[0-9]{2}))/
      ),
      let year = Int(match.year), let month = Int(match.month), let day = Int(match.day),
      (1...12).contains(month), (1...daysIn(month: month, of: year)).contains(day),
      let hour = Int(match.hour), hour < 24, let minute = Int(match.minute), minute < 60,
      let second = Int(match.second), second < 60,
      Int(match.zoneHours ?? "0").map({ $0 < 24 }) == true,
      Int(match.zoneMinutes ?? "0").map({ $0 < 60 }) == true,
      let base = try? wholeSeconds.parse(
        "\(match.year)-\(match.month)-\(match.day)T\(match.hour):\(match.minute):\(match.second)"
          + match.zone)
    else { return nil }
    let whole = base.timeIntervalSinceReferenceDate
    guard let fraction = match.fraction else { return base }
    // Parse whole and fraction as one decimal so the nearest Double is found, not a sum of two.
    let seconds =
      whole >= 0
      ? Double("\(Int(whole)).\(fraction)") : Double("0.\(fraction)").map { whole + $0 }
    return seconds.map(Date.init(timeIntervalSinceReferenceDate:))
  }

  /// The number of days of `month` (1…12) of `year` in the Gregorian calendar.
  private static func daysIn(month: Int, of year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
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

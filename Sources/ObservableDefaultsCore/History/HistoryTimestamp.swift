import Foundation

/// The time field of a history line, `2026-12-05T21:03:04Z`: UTC, whole seconds, as
/// `Date.ISO8601FormatStyle()` writes it.
///
/// Written from the C library's UTC fields (``SystemClock/utcFields(ofSecondsSince1970:)``): the
/// format style's first use makes Foundation's Gregorian calendar and finds the current time
/// zone (1.39 M instructions, a seventh of a one-shot `settings-editor write` of one key,
/// callgrind), for text whose zone is always UTC. Reading a history
/// (``ChangeHistory/entries(suite:key:)``) still parses with the style.
enum HistoryTimestamp {
  /// The text of `date`, its fraction of a second dropped.
  static func text(of date: Date) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    // Before the Gregorian calendar, Foundation's calendar counts Julian days: the style's own
    // text then (a history holds times of its writes, never such dates).
    guard abs(seconds) < 1e15, let fields = SystemClock.utcFields(ofSecondsSince1970: Int(seconds)),
      (1600...9999).contains(fields.year)
    else {
      return Date.ISO8601FormatStyle().format(date)
    }
    return fields.dateText + "T" + fields.clockText + "Z"
  }
}

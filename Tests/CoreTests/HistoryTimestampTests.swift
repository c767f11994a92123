import Foundation
import Testing

@testable import ObservableDefaultsCore

/// A history line's time is written from `gmtime_r` (``HistoryTimestamp``), not with
/// Foundation's format style: the same text as `Date.ISO8601FormatStyle()` for every date, the
/// fraction of a second dropped as the style drops it, and read back by the style (the style
/// writes the dates before 1600 and after 9999 itself).
@Suite struct HistoryTimestampTests {
  static let seconds: [Double] = [
    0, 0.9999, -0.5, -1.0001, 951_782_400.5, 1_764_000_000.999_9, 1_780_000_000,
    -11_676_096_000, -62_135_596_800, 253_402_300_799.9, 1_000_000_000.000_001,
  ]

  @Test(arguments: seconds)
  func theTextIsTheFormatStyles(seconds: Double) throws {
    let date = Date(timeIntervalSince1970: seconds)
    let style = Date.ISO8601FormatStyle()
    #expect(HistoryTimestamp.text(of: date) == style.format(date))
    let back = try style.parse(HistoryTimestamp.text(of: date))
    #expect(back.timeIntervalSince1970 == seconds.rounded(.down))
  }

  /// The local time of a change line (``ChangeHistory/localTime(_:)``) is written from
  /// `localtime_r`: the same text as Foundation's format style in the current time zone.
  @Test(arguments: seconds)
  func theLocalTimeIsTheFormatStyles(seconds: Double) {
    let date = Date(timeIntervalSince1970: seconds)
    let style = Date.VerbatimFormatStyle(
      format:
        "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits)",
      timeZone: .current, calendar: Calendar(identifier: .gregorian))
    #expect(ChangeHistory.localTime(date) == style.format(date))
    #expect(ChangeHistory.clockTime(date) == String(style.format(date).suffix(8)))
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension SystemClock {
  /// A time's fields in the proleptic Gregorian calendar, as the C library gives them (in UTC or
  /// in the local time zone).
  struct TimeFields {
    let year: Int
    /// 1…12.
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int
    let second: Int

    /// `2026-12-05`: the year with at least 4 digits, the month and day with 2.
    var dateText: String {
      Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2)
    }

    /// `21:03:04`.
    var clockText: String {
      Self.digits(hour, 2) + ":" + Self.digits(minute, 2) + ":" + Self.digits(second, 2)
    }

    fileprivate init(_ fields: tm) {
      year = Int(fields.tm_year) + 1900
      month = Int(fields.tm_mon) + 1
      day = Int(fields.tm_mday)
      hour = Int(fields.tm_hour)
      minute = Int(fields.tm_min)
      second = Int(fields.tm_sec)
    }

    /// `number` (not negative) in decimal, with leading zeros up to `count` digits.
    private static func digits(_ number: Int, _ count: Int) -> String {
      let text = String(number)
      return String(repeating: "0", count: max(0, count - text.count)) + text
    }
  }

  /// The UTC fields of `seconds` since 1970-01-01 00:00:00 UTC (`gmtime_r(3)`, which reads no
  /// time zone), nil when the C library cannot represent them.
  static func utcFields(ofSecondsSince1970 seconds: Int) -> TimeFields? {
    var time = time_t(seconds)
    var fields = tm()
    guard gmtime_r(&time, &fields) != nil else { return nil }
    return TimeFields(fields)
  }

  /// The fields of `seconds` since 1970-01-01 00:00:00 UTC in the local time zone
  /// (`localtime_r(3)`: `TZ`, else `/etc/localtime`, as Foundation's `TimeZone.current` finds
  /// it), nil when the C library cannot represent them.
  static func localFields(ofSecondsSince1970 seconds: Int) -> TimeFields? {
    var time = time_t(seconds)
    var fields = tm()
    tzset()
    guard localtime_r(&time, &fields) != nil else { return nil }
    return TimeFields(fields)
  }
}

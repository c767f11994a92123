#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension SystemClock {
  /// A time's fields in UTC, in the Gregorian calendar.
  struct UTCFields {
    let year: Int
    /// 1…12.
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int
    let second: Int
  }

  /// The UTC fields of `seconds` since 1970-01-01 00:00:00 UTC (`gmtime_r(3)`, which reads no
  /// time zone), nil when the C library cannot represent them.
  static func utcFields(ofSecondsSince1970 seconds: Int) -> UTCFields? {
    var time = time_t(seconds)
    var fields = tm()
    guard gmtime_r(&time, &fields) != nil else { return nil }
    return UTCFields(
      year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
      hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
  }
}

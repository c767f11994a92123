import Foundation

/// How ``PropertyListDefaults``'s typed getters read canonical values, as Apple's `UserDefaults`
/// does: every number converts (Foundation here matches exact types only, so its
/// `float(forKey:)` of a stored real is 0 and its `double(forKey:)` of a stored integer is 0).
enum TypedValueConversion {
  /// Integers as they are, reals truncated toward zero (0 when out of range), `true` as 1,
  /// numeric strings parsed; 0 otherwise.
  static func integer(from value: Any?) -> Int {
    switch value {
    case let value as Int: return value
    case let value as UInt64: return Int(clamping: value)
    case let value as Double: return Int(exactly: value.rounded(.towardZero)) ?? 0
    case let value as Bool: return value ? 1 : 0
    case let value as String: return NSString(string: value).integerValue
    default: return 0
    }
  }

  /// Reals as they are, integers converted, `true` as 1, numeric strings parsed; 0 otherwise.
  static func double(from value: Any?) -> Double {
    switch value {
    case let value as Double: return value
    case let value as Int: return Double(value)
    case let value as UInt64: return Double(value)
    case let value as Bool: return value ? 1 : 0
    case let value as String: return NSString(string: value).doubleValue
    default: return 0
    }
  }

  /// A stored string as a URL: an absolute URL string (what `set(_ url:forKey:)` stores) as that
  /// URL, anything else as a file path with `~` expanded (what Foundation here stores).
  static func url(from string: String) -> URL {
    if let url = URL(string: string), url.scheme != nil { return url }
    return URL(fileURLWithPath: NSString(string: string).expandingTildeInPath)
  }
}

import Foundation

/// Conversion of values to their canonical in-memory property-list form.
///
/// Canonical form: `String`, `Bool`, `Int` (every integer type, and `NSNumber` integers, that fit),
/// `UInt64` (only above `Int.max`), `Double` (`Float`, `Double`, `NSNumber` reals), `Date`, `Data`,
/// `[Any]` and `[String: Any]` of canonical values. It is what Foundation hands back after a
/// round trip through a file on Linux, so a value compares equal before and after being saved.
/// A nested dictionary two of whose keys differ only in Unicode normalization (which a `String`
/// key cannot tell apart) is a `[PropertyListKey: Any]`, as the readers give it.
package enum PropertyListValue {
  /// The dynamic type of `NSNumber(value: true)`, which tells booleans from the integers 0 and 1.
  private static let booleanNumberType: AnyClass = type(of: NSNumber(value: true))

  /// Returns `value` in canonical form, or nil when it is not a property-list value.
  ///
  /// - Parameter value: Any value; an `Optional` holding a value is unwrapped.
  /// - Returns: The canonical value, or nil for anything that cannot be stored in a property list
  ///   (a URL, a custom type, a dictionary with non-string keys, an empty `Optional`).
  package static func normalized(_ value: Any) -> Any? {
    let valueType = type(of: value)
    if valueType == String.self || valueType == Bool.self || valueType == Int.self
      || valueType == Double.self || valueType == Date.self || valueType == Data.self
    {
      return value
    }
    // `Int64` is what `set(_:forKey:)` callers commonly store: one cast instead of
    // normalizedOther's chain of failing casts.
    if valueType == Int64.self, let integer = value as? Int64 { return Int(integer) }
    if valueType is NSNumber.Type, let number = value as? NSNumber {
      return canonical(number)
    }
    return normalizedOther(value)
  }

  /// The cases of ``normalized(_:)`` beyond the common exact types.
  private static func normalizedOther(_ value: Any) -> Any? {
    switch value {
    case let v as String: return v
    case let v as Bool: return v
    case let v as Int: return v
    case let v as Double: return v
    case let v as Float: return Double(v)
    case let v as Int8: return Int(v)
    case let v as Int16: return Int(v)
    case let v as Int32: return Int(v)
    case let v as Int64: return Int(v)
    case let v as UInt8: return Int(v)
    case let v as UInt16: return Int(v)
    case let v as UInt32: return Int(v)
    case let v as UInt: return canonical(unsigned: UInt64(v))
    case let v as UInt64: return canonical(unsigned: v)
    case let v as Date: return v
    case let v as Data: return v
    case let v as [Any]: return normalized(array: v)
    case let v as [String: Any]: return normalized(dictionary: v)
    case let v as [PropertyListKey: Any]: return normalized(dictionary: v)
    case let v as [AnyHashable: Any]:
      var result: [String: Any] = [:]
      for (key, element) in v {
        guard let key = key.base as? String else { return nil }
        result[key] = element
      }
      return normalized(dictionary: result)
    default: return nil
    }
  }

  private static func normalized(array: [Any]) -> Any? {
    var result: [Any] = []
    result.reserveCapacity(array.count)
    for element in array {
      guard let element = normalized(element) else { return nil }
      result.append(element)
    }
    return result
  }

  private static func normalized<Key>(dictionary: [Key: Any]) -> Any? {
    var result: [Key: Any] = [:]
    result.reserveCapacity(dictionary.count)
    for (key, element) in dictionary {
      guard let element = normalized(element) else { return nil }
      result[key] = element
    }
    return result
  }

  private static func canonical(unsigned value: UInt64) -> Any {
    value <= UInt64(Int.max) ? Int(value) : value
  }

  private static func canonical(_ number: NSNumber) -> Any {
    if type(of: number) == booleanNumberType { return number.boolValue }
    switch UInt8(bitPattern: number.objCType.pointee) {
    case UInt8(ascii: "f"), UInt8(ascii: "d"):
      return number.doubleValue
    case UInt8(ascii: "Q"), UInt8(ascii: "L"):
      return canonical(unsigned: number.uint64Value)
    default:
      return Int(number.int64Value)
    }
  }
}

import Foundation

/// Tells whether two property-list values are deeply equal.
///
/// Values are compared in canonical form (see ``PropertyListDocument``): an `Int8(3)` equals the
/// `Int` 3 and a `Float` equals the `Double` it widens to, but `true` is not equal to `1`, and
/// the integer `1` is not equal to the real `1.0` (the stored type differs). Two NaN reals are
/// equal. Dictionaries are equal when they have the same keys with equal values; arrays when they
/// have equal elements in the same order. A value that is not a property-list value is equal to
/// nothing, not even itself.
///
/// - Parameters:
///   - lhs: A property-list value, or nil for "no value".
///   - rhs: A property-list value, or nil for "no value".
/// - Returns: `true` when both are nil or both hold equal values.
public func propertyListValuesEqual(_ lhs: Any?, _ rhs: Any?) -> Bool {
  switch (lhs, rhs) {
  case (nil, nil): return true
  case (nil, _), (_, nil): return false
  case let (lhs?, rhs?): return valuesEqual(lhs, rhs)
  }
}

private func valuesEqual(_ lhs: Any, _ rhs: Any) -> Bool {
  guard let lhs = PropertyListValue.normalized(lhs), let rhs = PropertyListValue.normalized(rhs),
    type(of: lhs) == type(of: rhs)
  else { return false }
  // The common scalar types first, by their type: one cast each instead of a chain of failing ones.
  if type(of: lhs) == Int.self, let l = lhs as? Int, let r = rhs as? Int { return l == r }
  if type(of: lhs) == String.self, let l = lhs as? String, let r = rhs as? String { return l == r }
  switch (lhs, rhs) {
  case let (l as Bool, r as Bool): return l == r
  case let (l as UInt64, r as UInt64): return l == r
  case let (l as Double, r as Double): return l == r || (l.isNaN && r.isNaN)
  case let (l as Date, r as Date): return l == r
  case let (l as Data, r as Data): return l == r
  case let (l as [Any], r as [Any]):
    return l.count == r.count && zip(l, r).allSatisfy { valuesEqual($0, $1) }
  case let (l as [String: Any], r as [String: Any]):
    return l.count == r.count
      && l.allSatisfy { key, value in r[key].map { valuesEqual(value, $0) } ?? false }
  default: return false
  }
}

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
  case (let lhs?, let rhs?): return valuesEqual(lhs, rhs)
  }
}

private func valuesEqual(_ lhs: Any, _ rhs: Any) -> Bool {
  let kind = type(of: lhs)
  if kind == type(of: rhs), let equal = canonicalValuesEqual(lhs, rhs, kind) { return equal }
  guard let lhs = PropertyListValue.normalized(lhs), let rhs = PropertyListValue.normalized(rhs)
  else { return false }
  guard type(of: lhs) == type(of: rhs) else { return false }
  return canonicalValuesEqual(lhs, rhs, type(of: lhs)) ?? false
}

/// Compares two values of the canonical type `kind` without copying them (a diff of two large
/// documents allocates nothing); nil when `kind` is not a canonical type.
private func canonicalValuesEqual(_ lhs: Any, _ rhs: Any, _ kind: Any.Type) -> Bool? {
  // Metatype comparisons first: far cheaper than trying dynamic casts one after another.
  if kind == String.self { return lhs as? String == rhs as? String }
  if kind == Int.self { return lhs as? Int == rhs as? Int }
  if kind == Bool.self { return lhs as? Bool == rhs as? Bool }
  if kind == Double.self, let l = lhs as? Double, let r = rhs as? Double {
    return l == r || (l.isNaN && r.isNaN)
  }
  if kind == Date.self { return lhs as? Date == rhs as? Date }
  if kind == Data.self { return lhs as? Data == rhs as? Data }
  if kind == UInt64.self { return lhs as? UInt64 == rhs as? UInt64 }
  if kind == [Any].self, let l = lhs as? [Any], let r = rhs as? [Any] {
    return l.count == r.count && zip(l, r).allSatisfy { valuesEqual($0, $1) }
  }
  if kind == [String: Any].self, let l = lhs as? [String: Any], let r = rhs as? [String: Any] {
    return l.count == r.count
      && l.allSatisfy { key, value in r[key].map { valuesEqual(value, $0) } ?? false }
  }
  return nil
}

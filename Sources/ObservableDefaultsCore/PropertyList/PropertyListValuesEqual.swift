import Foundation

/// Tells whether two property-list values are deeply equal.
///
/// Values are compared in canonical form (see ``PropertyListDocument``), strings (and the keys of
/// a top dictionary) by their exact Unicode scalars (`"\u{E9}"` is not `"e\u{301}"`): an
/// `Int8(3)` equals the
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
package func propertyListValuesEqual(_ lhs: Any?, _ rhs: Any?) -> Bool {
  // Unwrapped one at a time: a switch over the pair copied both values first.
  guard let lhs else { return rhs == nil }
  guard let rhs else { return false }
  return valuesEqual(lhs, rhs)
}

/// ``propertyListValuesEqual(_:_:)`` of two values (no optionals to unwrap and copy first).
func valuesEqual(_ lhs: Any, _ rhs: Any) -> Bool {
  let kind = type(of: lhs)
  if kind == type(of: rhs), let equal = canonicalValuesEqual(lhs, rhs, kind) { return equal }
  // A top dictionary (exact keys) and a `[String: Any]`: compared by exact keys.
  if let l = exactDictionary(lhs), let r = exactDictionary(rhs) {
    return canonicalValuesEqual(l, r, [PropertyListKey: Any].self) ?? false
  }
  guard let lhs = PropertyListValue.normalized(lhs), let rhs = PropertyListValue.normalized(rhs)
  else { return false }
  guard type(of: lhs) == type(of: rhs) else { return false }
  return canonicalValuesEqual(lhs, rhs, type(of: lhs)) ?? false
}

/// Compares two values of the canonical type `kind` without copying them (a diff of two large
/// documents allocates nothing); nil when `kind` is not a canonical type.
private func canonicalValuesEqual(_ lhs: Any, _ rhs: Any, _ kind: Any.Type) -> Bool? {
  // Metatype comparisons first, then each scalar is read as the type both values are known to
  // have, without a dynamic cast (the two casts were a sixth of a write in the burst
  // benchmark's profile).
  // Strings by their Unicode scalars, as a file holds them: `String`'s `==` (canonical
  // equivalence) took a write of "e\u{301}" over "\u{E9}" for no change, and it never reached
  // the file.
  if kind == String.self {
    return PropertyListKey(value(lhs, as: String.self))
      == PropertyListKey(value(rhs, as: String.self))
  }
  if kind == Int.self { return value(lhs, as: Int.self) == value(rhs, as: Int.self) }
  if kind == Bool.self { return value(lhs, as: Bool.self) == value(rhs, as: Bool.self) }
  if kind == Double.self {
    let (l, r) = (value(lhs, as: Double.self), value(rhs, as: Double.self))
    return l == r || (l.isNaN && r.isNaN)
  }
  if kind == Date.self { return value(lhs, as: Date.self) == value(rhs, as: Date.self) }
  if kind == Data.self { return value(lhs, as: Data.self) == value(rhs, as: Data.self) }
  if kind == UInt64.self { return value(lhs, as: UInt64.self) == value(rhs, as: UInt64.self) }
  if kind == [Any].self, let l = lhs as? [Any], let r = rhs as? [Any] {
    return l.count == r.count && zip(l, r).allSatisfy { valuesEqual($0, $1) }
  }
  if kind == [String: Any].self, let l = lhs as? [String: Any], let r = rhs as? [String: Any] {
    return l.count == r.count
      && l.allSatisfy { key, value in r[key].map { valuesEqual(value, $0) } ?? false }
  }
  if kind == [PropertyListKey: Any].self, let l = lhs as? [PropertyListKey: Any],
    let r = rhs as? [PropertyListKey: Any]
  {
    return l.count == r.count
      && l.allSatisfy { key, value in r[key].map { valuesEqual(value, $0) } ?? false }
  }
  return nil
}

/// `value` as a dictionary keyed by exact keys: itself, or a `[String: Any]`'s entries; nil for
/// anything else. (A reader gives a nested dictionary as `[PropertyListKey: Any]` when two of
/// its keys differ only in Unicode normalization, else as `[String: Any]`.)
func exactDictionary(_ value: Any) -> [PropertyListKey: Any]? {
  if let exact = value as? [PropertyListKey: Any] { return exact }
  return (value as? [String: Any]).map { [PropertyListKey: Any](exactKeys: $0) }
}

/// `opened`, whose dynamic type the caller checked to be `T`, as a `T`. Passing an `Any` here
/// opens it (SE-0352): the value arrives as it is, with its type, and is read without a cast.
func value<Opened, T>(_ opened: Opened, as type: T.Type) -> T {
  precondition(Opened.self == type, "a \(Opened.self) is not a \(type)")
  return unsafeBitCast(opened, to: type)
}

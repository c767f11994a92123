import Foundation
import ObservableDefaultsCore

/// Equality stricter than ``propertyListValuesEqual(_:_:)``: strings must have the same Unicode
/// scalars (not only be canonically equivalent) and zero reals the same sign, so a round trip
/// that changes either is a mismatch.
enum ExactEquality {
  static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
    switch (lhs, rhs) {
    case (let l as [String: Any], let r as [String: Any]):
      return l.count == r.count
        && l.allSatisfy { key, value in r[key].map { equal(value, $0) } ?? false }
    case (let l as [Any], let r as [Any]):
      return l.count == r.count && zip(l, r).allSatisfy(equal)
    case (let l as String, let r as String):
      return l.unicodeScalars.elementsEqual(r.unicodeScalars)
    default:
      guard propertyListValuesEqual(lhs, rhs) else { return false }
      if let l = lhs as? Double, let r = rhs as? Double, l == 0 { return l.sign == r.sign }
      return true
    }
  }

  /// Foundation's reading of `data` (any format), or nil when it refuses it.
  static func foundationValues(_ data: Data) -> Any? {
    try? PropertyListSerialization.propertyList(from: data, format: nil)
  }
}

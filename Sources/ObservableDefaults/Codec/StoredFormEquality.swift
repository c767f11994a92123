import Foundation
import ObservableDefaultsCore

/// How a codec compares two values by what they store, without building the stored forms, for
/// the types whose stored form compares as the values do: integers, Booleans, dates and data by
/// `==`; strings by their Unicode scalars; `Double` and `Float` by `==` with two NaNs equal, as
/// stored reals compare. Nil
/// for any other type (collections, whose reals may be NaNs, included): those compare their
/// stored forms.
///
/// The type of an `@ObservableCloud` property need not be `Equatable`, so its codec compared
/// stored forms: two boxed values and their comparison were a seventh of a cloud write.
func storedFormEquality<Value>(of _: Value.Type) -> ((Value, Value) -> Bool)? {
  if Value.self == Double.self { return realEquality(Double.self) as? (Value, Value) -> Bool }
  if Value.self == Float.self { return realEquality(Float.self) as? (Value, Value) -> Bool }
  if Value.self == String.self { return stringEquality() as? (Value, Value) -> Bool }
  let exact: [Any.Type] = [String.self, Bool.self, Date.self, Data.self]
  guard Value.self is any _PropertyListInteger.Type || exact.contains(where: { $0 == Value.self }),
    let type = Value.self as? any Equatable.Type
  else { return nil }
  return equality(type) as? (Value, Value) -> Bool
}

/// `==` of `T`, as `Any` (it is the caller's `(Value, Value) -> Bool`).
private func equality<T: Equatable>(_: T.Type) -> Any {
  { (lhs: T, rhs: T) in lhs == rhs } as (T, T) -> Bool
}

/// Whether two strings hold the same Unicode scalars, as the file compares them, as `Any` (it is
/// the caller's `(Value, Value) -> Bool`). `String`'s `==` is canonical equivalence: a new value
/// `"e\u{301}"` for a stored `"\u{E9}"` was taken for no change, and never stored.
private func stringEquality() -> Any {
  { (lhs: String, rhs: String) in PropertyListKey(lhs) == PropertyListKey(rhs) }
    as (String, String) -> Bool
}

/// `==` of `T` with two NaNs equal, as `Any` (it is the caller's `(Value, Value) -> Bool`).
private func realEquality<T: FloatingPoint>(_: T.Type) -> Any {
  { (lhs: T, rhs: T) in lhs == rhs || (lhs.isNaN && rhs.isNaN) } as (T, T) -> Bool
}

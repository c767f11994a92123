public import Foundation

/// A property-list value of one of the common canonical types, its type known to the writer: a
/// suite stores it without normalizing it and compares it with the value it replaces without
/// looking at the new value's dynamic type (``ObservableKeyValueStore/write(scalar:forKey:excluding:)``).
///
/// A settings property of one of these types is written this way: normalizing the value as
/// `Any` and comparing two `Any` values cost a `String` property's write about 575 instructions
/// (the burst benchmark's profile, issue 42 item 4).
public enum PropertyListScalar: Sendable {
  /// A string.
  case string(String)
  /// An integer.
  case integer(Int)
  /// A Boolean.
  case boolean(Bool)
  /// A real.
  case real(Double)
  /// A date.
  case date(Date)
  /// Binary data.
  case data(Data)

  /// `value` as a scalar when its type is one of the cases' (`String`, `Int`, `Bool`,
  /// `Double`, `Date`, `Data`), else nil. Inlined, so a caller whose `Value` is known keeps only
  /// its own case.
  @inlinable
  public init?<Value>(_ value: Value) {
    if Value.self == String.self {
      self = .string(unsafeBitCast(value, to: String.self))
    } else if Value.self == Int.self {
      self = .integer(unsafeBitCast(value, to: Int.self))
    } else if Value.self == Bool.self {
      self = .boolean(unsafeBitCast(value, to: Bool.self))
    } else if Value.self == Double.self {
      self = .real(unsafeBitCast(value, to: Double.self))
    } else if Value.self == Date.self {
      self = .date(unsafeBitCast(value, to: Date.self))
    } else if Value.self == Data.self {
      self = .data(unsafeBitCast(value, to: Data.self))
    } else {
      return nil
    }
  }

  /// Whether two values of a type this enum holds store the same thing, compared by their
  /// type as the suite compares a scalar with the value it replaces (`isEqual(toStored:)`):
  /// strings by their Unicode scalars (`"\u{E9}"` and `"e\u{301}"` differ, though `==` calls
  /// them equal), reals with two NaNs equal, the others by `==`. Nil for a value of another
  /// type.
  ///
  /// Inlined, the type's checks are decided where `Value` is known: a property's setter
  /// compares without the codec's closure and its reabstraction thunks (about 165
  /// instructions of a property write).
  @inlinable
  public static func storeSame<Value>(_ lhs: Value, _ rhs: Value) -> Bool? {
    if Value.self == String.self {
      return PropertyListKey(unsafeBitCast(lhs, to: String.self))
        == PropertyListKey(unsafeBitCast(rhs, to: String.self))
    } else if Value.self == Int.self {
      return unsafeBitCast(lhs, to: Int.self) == unsafeBitCast(rhs, to: Int.self)
    } else if Value.self == Bool.self {
      return unsafeBitCast(lhs, to: Bool.self) == unsafeBitCast(rhs, to: Bool.self)
    } else if Value.self == Double.self {
      let (left, right) = (unsafeBitCast(lhs, to: Double.self), unsafeBitCast(rhs, to: Double.self))
      return left == right || (left.isNaN && right.isNaN)
    } else if Value.self == Date.self {
      return unsafeBitCast(lhs, to: Date.self) == unsafeBitCast(rhs, to: Date.self)
    } else if Value.self == Data.self {
      return unsafeBitCast(lhs, to: Data.self) == unsafeBitCast(rhs, to: Data.self)
    }
    return nil
  }

  /// Whether ``init(_:)`` takes values of type `Value`.
  public static func holds<Value>(_: Value.Type) -> Bool {
    Value.self == String.self || Value.self == Int.self || Value.self == Bool.self
      || Value.self == Double.self || Value.self == Date.self || Value.self == Data.self
  }

  /// The value as a suite's dictionary holds it (its canonical form: the payload itself).
  public var storedValue: Any {
    switch self {
    case .string(let value): value
    case .integer(let value): value
    case .boolean(let value): value
    case .real(let value): value
    case .date(let value): value
    case .data(let value): value
    }
  }

  /// Whether `stored` (a canonical value) equals this value, as ``propertyListValuesEqual(_:_:)``
  /// tells: strings by their Unicode scalars, two NaN reals equal. A stored value of the same
  /// type is read without a cast; one of another type takes the general comparison.
  func isEqual(toStored stored: Any) -> Bool {
    switch self {
    case .string(let new) where type(of: stored) == String.self:
      PropertyListKey(value(stored, as: String.self)) == PropertyListKey(new)
    case .integer(let new) where type(of: stored) == Int.self:
      value(stored, as: Int.self) == new
    case .boolean(let new) where type(of: stored) == Bool.self:
      value(stored, as: Bool.self) == new
    case .real(let new) where type(of: stored) == Double.self:
      value(stored, as: Double.self) == new || (new.isNaN && value(stored, as: Double.self).isNaN)
    case .date(let new) where type(of: stored) == Date.self:
      value(stored, as: Date.self) == new
    case .data(let new) where type(of: stored) == Data.self:
      value(stored, as: Data.self) == new
    default:
      valuesEqual(stored, storedValue)
    }
  }
}

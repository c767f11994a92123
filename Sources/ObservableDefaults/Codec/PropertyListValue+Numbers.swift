import Foundation

// Numbers come back from Foundation's `PropertyListSerialization` on Linux as `NSNumber`, and
// `as? Int8` (or `as? Float`) on them fails; these conformances read the number's value and
// accept it only when it fits the type exactly, so every integer width and `Float` round-trip.

/// A property-list number read back as `Int64`, `UInt64` or `Double`, whichever holds it exactly.
enum PropertyListNumber {
  case signed(Int64)
  case unsigned(UInt64)
  case real(Double)

  init?(_ object: Any) {
    switch object {
    case is Bool: return nil
    case let value as Int: self = .signed(Int64(value))
    case let value as Int64: self = .signed(value)
    case let value as UInt64: self = .unsigned(value)
    case let value as Double: self = .real(value)
    case let value as Float: self = .real(Double(value))
    case let number as NSNumber:
      let type = String(cString: number.objCType)
      if type == "d" || type == "f" {
        self = .real(number.doubleValue)
      } else if type == "Q" || type == "L" || type == "I" || type == "S" || type == "C" {
        self = .unsigned(number.uint64Value)
      } else {
        self = .signed(number.int64Value)
      }
    default: return nil
    }
  }

  /// The number as an integer of type `T`, or `nil` when it has a fraction or is out of range.
  func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
    switch self {
    case .signed(let value): T(exactly: value)
    case .unsigned(let value): T(exactly: value)
    case .real(let value): T(exactly: value)
    }
  }

  var double: Double {
    switch self {
    case .signed(let value): Double(value)
    case .unsigned(let value): Double(value)
    case .real(let value): value
    }
  }
}

/// Integer conformances share one implementation: stored as the integer itself, read back exactly.
public protocol _PropertyListInteger: FixedWidthInteger, _PropertyListRepresentable {}

extension _PropertyListInteger {
  /// The integer in the form a property-list file reads back: an `Int` when it fits one (no
  /// conversion left for the store), else the `UInt64` it is.
  public var propertyListObject: Any {
    if let integer = Int(exactly: self) { return integer }
    return UInt64(self)
  }
  public init?(propertyListObject object: Any) {
    guard let value = PropertyListNumber(object)?.integer(Self.self) else { return nil }
    self = value
  }
}

extension Int: _PropertyListInteger {}
extension Int8: _PropertyListInteger {}
extension Int16: _PropertyListInteger {}
extension Int32: _PropertyListInteger {}
extension Int64: _PropertyListInteger {}
extension UInt: _PropertyListInteger {}
extension UInt8: _PropertyListInteger {}
extension UInt16: _PropertyListInteger {}
extension UInt32: _PropertyListInteger {}
extension UInt64: _PropertyListInteger {}

extension Double: _PropertyListRepresentable {
  public var propertyListObject: Any { self }
  public init?(propertyListObject object: Any) {
    guard let number = PropertyListNumber(object) else { return nil }
    self = number.double
  }
}

extension Float: _PropertyListRepresentable {
  /// Stored as the `Double` of the same value; read back by rounding to the nearest `Float`,
  /// which gives the original `Float` exactly.
  public var propertyListObject: Any { Double(self) }
  public init?(propertyListObject object: Any) {
    guard let number = PropertyListNumber(object) else { return nil }
    self = Float(number.double)
  }
}

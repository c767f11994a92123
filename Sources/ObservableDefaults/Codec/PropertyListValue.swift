import Foundation

/// A type that `@ObservableDefaults` stores as a property-list value of its own: `String`, `Bool`,
/// every integer width, `Float`, `Double`, `Date`, `Data`, `URL`, their Foundation classes
/// (`NSString`, `NSNumber`, `NSDate`, `NSData`, `NSURL`), and arrays, `[String: Value]`
/// dictionaries and optionals of them.
///
/// A marker with no requirements, as in Apple-platform ObservableDefaults, so code written for it
/// compiles unchanged: a `RawRepresentable` type of yours may declare the conformance
/// (`extension Token: UserDefaultsPropertyListValue {}`); it is then stored as its raw value and
/// read back from either its raw value or its own form (the first rule of ``DefaultsCodec``).
/// A type of yours with no property-list form (a `Codable` struct marked with it) is stored as
/// JSON `Data`, and `URL` is too (it keeps its scheme, host, query and fragment).
public protocol UserDefaultsPropertyListValue: Equatable {}

/// The marker Apple-platform ObservableDefaults used for `Codable` values; any `Codable` type
/// works now, so this is only a name kept for source compatibility.
public typealias CodableUserDefaultsPropertyListValue = Codable

extension String: UserDefaultsPropertyListValue {}
extension Bool: UserDefaultsPropertyListValue {}
extension Date: UserDefaultsPropertyListValue {}
extension Data: UserDefaultsPropertyListValue {}
extension URL: UserDefaultsPropertyListValue {}
extension Int: UserDefaultsPropertyListValue {}
extension Int8: UserDefaultsPropertyListValue {}
extension Int16: UserDefaultsPropertyListValue {}
extension Int32: UserDefaultsPropertyListValue {}
extension Int64: UserDefaultsPropertyListValue {}
extension UInt: UserDefaultsPropertyListValue {}
extension UInt8: UserDefaultsPropertyListValue {}
extension UInt16: UserDefaultsPropertyListValue {}
extension UInt32: UserDefaultsPropertyListValue {}
extension UInt64: UserDefaultsPropertyListValue {}
extension Double: UserDefaultsPropertyListValue {}
extension Float: UserDefaultsPropertyListValue {}
extension NSString: UserDefaultsPropertyListValue {}
extension NSNumber: UserDefaultsPropertyListValue {}
extension NSDate: UserDefaultsPropertyListValue {}
extension NSData: UserDefaultsPropertyListValue {}
extension NSURL: UserDefaultsPropertyListValue {}
extension Array: UserDefaultsPropertyListValue where Element: UserDefaultsPropertyListValue {}
extension Dictionary: UserDefaultsPropertyListValue
where Key == String, Value: UserDefaultsPropertyListValue {}
extension Optional: UserDefaultsPropertyListValue where Wrapped: UserDefaultsPropertyListValue {}

/// An optional of a ``UserDefaultsPropertyListValue``: lets the codec of an optional property
/// rank above the one of a plain property-list value. Not meant to be used directly.
public protocol _OptionalPropertyListValue: UserDefaultsPropertyListValue {
  /// The wrapped type.
  associatedtype Wrapped: UserDefaultsPropertyListValue
}

extension Optional: _OptionalPropertyListValue where Wrapped: UserDefaultsPropertyListValue {}

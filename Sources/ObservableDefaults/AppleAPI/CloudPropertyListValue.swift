import Foundation

/// A type that `@ObservableCloud` stores as a value of its own in the cloud key-value store:
/// `String`, `Int`, `Int64`, `Double`, `Float`, `Bool`, `Data`, `Date`, and arrays,
/// `[String: Value]` dictionaries and optionals of them (the types Apple's
/// `NSUbiquitousKeyValueStore` takes).
///
/// A marker with no requirements, as in Apple-platform ObservableDefaults, so code written for it
/// compiles unchanged: a `RawRepresentable` type of yours may declare the conformance; it is then
/// stored as its raw value (the first rule of ``DefaultsCodec``).
public protocol CloudPropertyListValue {}

/// The marker Apple-platform ObservableDefaults used for `Codable` cloud values; any `Codable`
/// type works now, so this is only a name kept for source compatibility.
public typealias CodableCloudPropertyListValue = Codable

extension String: CloudPropertyListValue {}
extension Int: CloudPropertyListValue {}
extension Int64: CloudPropertyListValue {}
extension Double: CloudPropertyListValue {}
extension Float: CloudPropertyListValue {}
extension Bool: CloudPropertyListValue {}
extension Data: CloudPropertyListValue {}
extension Date: CloudPropertyListValue {}
extension Array: CloudPropertyListValue where Element: CloudPropertyListValue {}
extension Dictionary: CloudPropertyListValue where Key == String, Value: CloudPropertyListValue {}
extension Optional: CloudPropertyListValue where Wrapped: CloudPropertyListValue {}

/// An optional of a ``CloudPropertyListValue``: lets the codec of an optional cloud property rank
/// above the one of a plain cloud value. Not meant to be used directly.
public protocol _OptionalCloudPropertyListValue: CloudPropertyListValue {
  /// The wrapped type.
  associatedtype Wrapped: CloudPropertyListValue
}

extension Optional: _OptionalCloudPropertyListValue where Wrapped: CloudPropertyListValue {}

public import Foundation

/// The contents of one property-list file: its top-level dictionary and the format it is stored in.
///
/// Values are in their canonical in-memory form (see `propertyListValuesEqual(_:_:)`): `String`,
/// `Bool`, `Int` (every integer that fits), `UInt64` (larger unsigned integers), `Double` (every
/// real, including 4-byte reals), `Date`, `Data`, `[Any]` and `[String: Any]`.
///
/// The top-level keys are ``PropertyListKey``s, compared by their exact Unicode scalars as the
/// file, CoreFoundation and python's `plistlib` compare them: two keys that differ only in
/// Unicode normalization are two entries. (Nested dictionaries are `[String: Any]`, which holds
/// such keys as one.)
public struct PropertyListDocument {
  /// The top-level dictionary of the file, by exact key (subscript it with a `String` too).
  public var values: [PropertyListKey: Any]
  /// The format the file is stored in; a write keeps it (`.binary` stays binary, anything else
  /// is written as `.xml`, because Foundation cannot write the OpenStep format).
  public var format: PropertyListSerialization.PropertyListFormat

  /// Creates a document.
  ///
  /// - Parameters:
  ///   - values: The top-level dictionary, in canonical form.
  ///   - format: The format the file is (or will be) stored in.
  public init(
    values: [PropertyListKey: Any] = [:],
    format: PropertyListSerialization.PropertyListFormat = .xml
  ) {
    self.values = values
    self.format = format
  }

  /// Creates a document from `String` keys (distinct ones: a `[String: Any]` cannot hold two
  /// keys that differ only in Unicode normalization).
  ///
  /// - Parameters:
  ///   - values: The top-level dictionary, in canonical form.
  ///   - format: The format the file is (or will be) stored in.
  public init(values: [String: Any], format: PropertyListSerialization.PropertyListFormat = .xml) {
    self.init(values: [PropertyListKey: Any](exactKeys: values), format: format)
  }

  /// Sets or removes the keys of `changes`; other keys are kept.
  ///
  /// - Parameter changes: Exact key → change; values of `.set` must be in canonical form.
  public mutating func apply(_ changes: [PropertyListKey: PropertyListChange]) {
    for (key, change) in changes {
      switch change {
      case .set(let value): values[key] = value
      case .remove: values[key] = nil
      }
    }
  }
}

/// One change to apply to a key of a property-list file.
public enum PropertyListChange {
  /// Stores this value (a property-list value) under the key.
  case set(Any)
  /// Removes the key.
  case remove
}

import Foundation

/// The raw values of a suite while a ``SuiteMigrationStep`` runs: read, rename, remove and
/// convert keys. Changes apply to this view; the migration writes them all at once, or nothing.
///
/// Keys are exact (see ``PropertyListKey``): `é` as U+00E9 and as `e` U+0301 are two keys here,
/// as in the suite file and the cloud store, and each method's `String` key names exactly the
/// one of its Unicode scalars, so a step that walks ``values`` migrates both.
public struct MigratingSuite {
  /// The values, in canonical property-list form (see ``PropertyListDocument``), by exact key.
  public private(set) var values: [PropertyListKey: Any]
  /// Keys changed so far (set, renamed from or to, removed), for ``SuiteMigrationPlan``.
  private(set) var changedKeys: Set<PropertyListKey> = []

  init(values: [PropertyListKey: Any]) { self.values = values }

  /// The value of `key` when it is a `T` (`String`, `Int`, `Double`, `Bool`, `Date`, `Data`,
  /// arrays and `[String: Any]` dictionaries of them), else `nil`. A dictionary two of whose
  /// keys differ only in Unicode normalization is a `[PropertyListKey: Any]`; as a
  /// `[String: Any]` it holds the first of them in Unicode scalar order.
  public func value<T>(forKey key: String, as _: T.Type = T.self) -> T? {
    guard let value = values[PropertyListKey(key)] else { return nil }
    return value as? T ?? PropertyListValue.stringKeyed(value) as? T
  }

  /// Stores `value` under `key` (nil removes it).
  /// - Throws: ``SuiteMigrationError/notAPropertyListValue(key:type:)``.
  public mutating func set(_ value: Any?, forKey key: String) throws {
    guard let value else { return remove(key) }
    guard let canonical = PropertyListValue.normalized(value) else {
      throw SuiteMigrationError.notAPropertyListValue(key: key, type: "\(type(of: value))")
    }
    values[PropertyListKey(key)] = canonical
    changedKeys.insert(PropertyListKey(key))
  }

  /// Removes `key` (nothing happens when it holds no value).
  public mutating func remove(_ key: String) {
    guard values.removeValue(forKey: PropertyListKey(key)) != nil else { return }
    changedKeys.insert(PropertyListKey(key))
  }

  /// Moves the value of `old` to `new`, replacing what `new` held; nothing happens when `old`
  /// holds no value.
  public mutating func rename(_ old: String, to new: String) {
    let (old, new) = (PropertyListKey(old), PropertyListKey(new))
    guard old != new, let value = values.removeValue(forKey: old) else { return }
    values[new] = value
    changedKeys.formUnion([old, new])
  }

  /// Replaces the value of `key` by `transform` of it when it is an `Old`; nothing happens when
  /// the key holds no value or a value of another type.
  /// - Throws: What `transform` throws, or ``SuiteMigrationError/notAPropertyListValue(key:type:)``.
  public mutating func convert<Old, New>(
    _ key: String, from _: Old.Type, _ transform: (Old) throws -> New
  ) throws {
    guard let old = value(forKey: key, as: Old.self) else { return }
    try set(transform(old), forKey: key)
  }
}

/// A migration step stored what a suite cannot hold.
public enum SuiteMigrationError: Error, Equatable, CustomStringConvertible {
  /// The value set for `key` is of `type`, not a property-list value.
  case notAPropertyListValue(key: String, type: String)

  /// `a migration stored a value of type NSObject under 'k', which is not a property-list value`.
  public var description: String {
    switch self {
    case .notAPropertyListValue(let key, let type):
      "a migration stored a value of type \(type) under '\(key)', which is not a property-list value"
    }
  }
}

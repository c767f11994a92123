import Foundation

/// The raw values of a suite while a ``SuiteMigrationStep`` runs: read, rename, remove and
/// convert keys. Changes apply to this view; the migration writes them all at once, or nothing.
public struct MigratingSuite {
  /// The values, in canonical property-list form (see ``PropertyListDocument``).
  public private(set) var values: [String: Any]
  /// Keys changed so far (set, renamed from or to, removed), for ``SuiteMigrationPlan``.
  private(set) var changedKeys: Set<String> = []

  init(values: [String: Any]) { self.values = values }

  /// The value of `key` when it is a `T` (`String`, `Int`, `Double`, `Bool`, `Date`, `Data`,
  /// arrays and `[String: Any]` dictionaries of them), else `nil`.
  public func value<T>(forKey key: String, as _: T.Type = T.self) -> T? { values[key] as? T }

  /// Stores `value` under `key` (nil removes it).
  /// - Throws: ``SuiteMigrationError/notAPropertyListValue(key:type:)``.
  public mutating func set(_ value: Any?, forKey key: String) throws {
    guard let value else { return remove(key) }
    guard let canonical = PropertyListValue.normalized(value) else {
      throw SuiteMigrationError.notAPropertyListValue(key: key, type: "\(type(of: value))")
    }
    values[key] = canonical
    changedKeys.insert(key)
  }

  /// Removes `key` (nothing happens when it holds no value).
  public mutating func remove(_ key: String) {
    guard values.removeValue(forKey: key) != nil else { return }
    changedKeys.insert(key)
  }

  /// Moves the value of `old` to `new`, replacing what `new` held; nothing happens when `old`
  /// holds no value.
  public mutating func rename(_ old: String, to new: String) {
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
    guard let old = values[key] as? Old else { return }
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

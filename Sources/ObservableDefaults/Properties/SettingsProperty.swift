import Foundation
package import ObservableDefaultsSchema

/// One observable property of a settings class, described for tools such as the settings editor:
/// its name, storage key, value type, documentation and default, and type-checked access to its value.
///
/// The `@ObservableDefaults` and `@ObservableCloud` macros generate one per observable property
/// (in declaration order) into the class's `_$settingsProperties` (see ``ObservableSettings``).
public struct SettingsProperty<Object: AnyObject>: @unchecked Sendable {
  // Sendable: every stored closure captures only key paths and a `DefaultsCodec`, all immutable.

  /// The property's name in Swift.
  public let name: String
  /// The storage key without the object's prefix; `nil` for an `@ObservableOnly` property.
  public let key: String?
  /// The keys the value was stored under in earlier versions, newest first, without the
  /// object's prefix (`previousKeys:` of the key macros); empty for an `@ObservableOnly` property.
  public let previousKeys: [String]
  /// The kind of value, for choosing an editor, as a published schema names it.
  package let valueType: SettingsValueType
  /// The Swift type as written, such as `"Int"` or `"Optional<String>"`.
  public let typeName: String
  /// The first paragraph of the property's `///` documentation comment, without the slashes;
  /// `nil` when it has none.
  public let summary: String?
  /// The paragraphs of the documentation comment after the first (DocC's discussion), separated
  /// by a blank line; `nil` when there are none.
  public let discussion: String?
  /// The key path of the property.
  public let keyPath: AnyKeyPath

  private let read: (Object) -> Any
  private let readDefault: ((Object, SettingsStoreInfo) -> Any)?
  private let write: (Object, Any) throws -> Void
  private let encode: (Object) -> Any?
  private let writeEncoded: (Object, Any?) throws -> Void
  private let reads: (Any) -> Bool
  private let equalsDefault: (Object, SettingsStoreInfo) -> Bool
  /// The property's entry in a published schema; `nil` for an `@ObservableOnly` property.
  let schemaKey: (Object) -> SettingsSchema.Key?
  /// The value stored under the key (with the given prefix) in a store, else the property's
  /// fallback; for an `@ObservableOnly` property, its value.
  let storedValue: (Object, any ObservableKeyValueStore, String) -> Any
  let refresh: (Object, any ObservableKeyValueStore, String) -> Update?
  let reset: (Object, SettingsStoreInfo) throws -> Void
  /// Moves a value stored under a previous key to the key; see ``migrateStoredValue(of:)``.
  let migrate: (SettingsStoreInfo) throws -> Bool
  /// What the next write or a migration will change in the store (with the given prefix), or
  /// `nil`; a write of an equal value still writes when there is something.
  let pendingMigration: (any ObservableKeyValueStore, String) -> String?

  /// The keys the value may be stored under; `nil` for an `@ObservableOnly` property.
  var storageKeys: StorageKeys? { key.map { StorageKeys(key: $0, previousKeys: previousKeys) } }

  /// The current value, read through the property's getter (so Observation tracking sees the read).
  public func value(of object: Object) -> Any { read(object) }

  /// Assigns a value through the property's setter, so it is stored and observers are notified.
  /// - Throws: ``SettingsValueError/typeMismatch(key:expected:actual:)`` when `value` is not of
  ///   the property's type; nothing is assigned then.
  public func setValue(_ value: Any, of object: Object) throws { try write(object, value) }

  /// The current value in the form the store keeps it, made by the property's codec: a
  /// property-list object (`String`, a number, `Bool`, `Date`, `Data`, an array or a dictionary
  /// of those), JSON `Data` for a `Codable` value, the raw value of an enumeration; `nil` for an
  /// empty optional and for an `@ObservableOnly` property.
  ///
  /// Tools show and copy values in this form without knowing the property's type, and give it
  /// back to ``setValue(fromPropertyList:of:)``.
  public func propertyListValue(of object: Object) -> Any? { encode(object) }

  /// Assigns the value the property's codec reads from a stored form, through the setter, so it
  /// is stored and observers are notified: an enumeration's raw value, a property-list object,
  /// JSON `Data` for a `Codable` value. `nil` assigns `nil` to an optional property.
  ///
  /// - Throws: ``SettingsValueError/undecodable(key:expected:reason:)`` when the codec cannot read a
  ///   value of the property's type from `object` (or `object` is `nil` and the property is not
  ///   optional, or the property is `@ObservableOnly`); nothing is assigned then.
  public func setValue(fromPropertyList object: Any?, of settings: Object) throws {
    try writeEncoded(settings, object)
  }

  /// Whether the property's codec reads a value from `stored`, a form found in the store. When
  /// it does not (another program wrote a `String` where an `Int` belongs), the property shows
  /// its default, and tools show the stored form as undecodable. Always false for an
  /// `@ObservableOnly` property.
  public func decodes(_ stored: Any) -> Bool { reads(stored) }
}

// The functions that need the object's store take it from the object's description; the
// properties themselves do not require it, so that a property table can be built where the
// class's `ObservableSettings` conformance is isolated to the main actor and the table is not.
extension SettingsProperty where Object: ObservableSettings {
  /// The value the property falls back to when nothing is stored: the registered default when
  /// `register(defaults:)` gave one, otherwise the declaration-time default; `nil` for an
  /// `@ObservableOnly` property, which has no stored value to fall back from.
  public func defaultValue(of object: Object) -> Any? {
    readDefault?(object, object._$settingsStore)
  }

  /// Whether the current value equals ``defaultValue(of:)``.
  public func isDefault(_ object: Object) -> Bool { equalsDefault(object, object._$settingsStore) }

  /// Removes the stored value so the property reads its default again (no effect on an
  /// `@ObservableOnly` property). Values under ``previousKeys`` are removed too. Observers in this
  /// process are told the change's writer is `DefaultsChange.Writer.reset`.
  /// - Throws: What the store throws when it refuses the removal, such as `PropertyListError`
  ///   while the suite's file does not parse; nothing changes then.
  public func resetValue(of object: Object) throws {
    try DefaultsChange.Writer.during(.reset) { try reset(object, object._$settingsStore) }
  }

  /// What the next write of the property, or ``migrateStoredValue(of:)``, will change in the
  /// store, for people (tools show it); `nil` when the value is stored under ``key`` in its
  /// current form and no previous key holds a value. For example: `stored under the previous
  /// key 'name'; the next write moves it to 'displayName' and removes 'name'`.
  public func pendingMigration(of object: Object) -> String? {
    let store = object._$settingsStore
    return pendingMigration(store.store, store.prefix)
  }

  /// Moves the value stored under one of ``previousKeys`` to ``key`` and removes every previous
  /// key, in one write of the store (one locked merge of a suite file, one save of the cloud
  /// store). A value stored in an earlier version's form (`convertingFrom:`) is converted and
  /// stored in the new form; any other value keeps its bytes, also one that does not decode.
  /// Does nothing when the value is already under ``key`` in its current form, or nothing is stored.
  ///
  /// - Returns: Whether anything was written.
  /// - Throws: The store's write error (a malformed suite file, a quota); nothing changes then.
  @discardableResult
  public func migrateStoredValue(of object: Object) throws -> Bool {
    try DefaultsChange.Writer.during(.migration) { try migrate(object._$settingsStore) }
  }
}

extension SettingsProperty {
  /// A pending update of one cached value after a store change.
  struct Update {
    let keyPath: AnyKeyPath
    /// Stores the new value in the cache; called under the object's lock.
    let assign: () -> Void
    /// Runs a body inside the registrar's `withMutation` for this property.
    let withMutation: (ObservationRegistrar, () -> Void) -> Void
  }

  /// Describes a persisted property (`@DefaultsBacked` / `@CloudBacked`).
  /// - Parameters:
  ///   - name: The property's name.
  ///   - key: The storage key without prefix.
  ///   - previousKeys: The keys of earlier versions, newest first, without prefix: while `key`
  ///     holds no value, the value is read from the first that holds one; the first write of the
  ///     property or ``migrateStoredValue(of:)`` moves it to `key`.
  ///   - summary: The property's documentation comment (paragraphs separated by a blank line).
  ///   - property: The property.
  ///   - storage: Its cache (`_name` in the expansion).
  ///   - defaultValue: Its declaration-time default (`_default_value_of_name`).
  ///   - codec: How its value is stored.
  ///   - conversion: Reads a value stored in an earlier version's form (`convertingFrom:` of
  ///     the key macros) when it does not decode with `codec`.
  public static func persisted<Value>(
    _ name: String, key: String, previousKeys: [String] = [], summary: String? = nil,
    property: ReferenceWritableKeyPath<Object, Value>,
    storage: ReferenceWritableKeyPath<Object, Value>,
    defaultValue: KeyPath<Object, Value>,
    codec: DefaultsCodec<Value>,
    conversion: StoredFormConversion<Value>? = nil
  ) -> Self where Object: Observable {
    let reader = StoredValueReader(
      keys: StorageKeys(key: key, previousKeys: previousKeys), codec: codec, conversion: conversion)
    let codec = conversion.map(codec.reading) ?? codec
    let fallback: (Object, SettingsStoreInfo) -> Value = { object, store in
      let registered = (store.store as? UserDefaults)?.registeredValue(forKey: store.prefix + key)
      return registered.flatMap(codec.decode) ?? object[keyPath: defaultValue]
    }
    let storedValue: (Object, any ObservableKeyValueStore, String) -> Value = {
      object, store, prefix in
      guard let reading = reader.reading(in: store, prefix: prefix, includingDefaults: true) else {
        return object[keyPath: defaultValue]
      }
      if let value = reading.value { return value }
      UndecodableValueReports.report(
        reading.stored, key: reading.key, in: store, object: Object.self, property: name,
        as: Value.self)
      return object[keyPath: defaultValue]
    }
    let documentation = DocumentationText(summary)
    return Self(
      name: name, key: key, previousKeys: previousKeys, valueType: SettingsValueType(Value.self),
      typeName: nameOfType(Value.self), summary: documentation.summary,
      discussion: documentation.discussion, keyPath: property,
      read: { $0[keyPath: property] },
      readDefault: fallback,
      write: { object, value in
        object[keyPath: property] = try cast(value, to: Value.self, key: key)
      },
      encode: { codec.encode($0[keyPath: property]) },
      writeEncoded: { object, stored in
        object[keyPath: property] = try decoded(stored, by: codec, key: key)
      },
      reads: { codec.decode($0) != nil },
      equalsDefault: { codec.isEqual($0[keyPath: property], fallback($0, $1)) },
      schemaKey: { object in
        SettingsSchema.Key(
          name: name, key: key, previousKeys: previousKeys, documentation: summary,
          defaultValue: object[keyPath: defaultValue], codec: codec)
      },
      storedValue: storedValue,
      refresh: { object, store, prefix in
        let stored = storedValue(object, store, prefix)
        guard !codec.isEqual(stored, object[keyPath: storage]) else { return nil }
        return Update(
          keyPath: property,
          assign: { object[keyPath: storage] = stored },
          withMutation: { registrar, body in
            registrar.withMutation(of: object, keyPath: property, body)
          }
        )
      },
      reset: { _, store in
        let writes = reader.keys.writes(storing: nil, in: store.store, prefix: store.prefix)
        try store.store.write(writes, excluding: nil)
      },
      migrate: { store in
        guard let writes = reader.migrationWrites(in: store.store, prefix: store.prefix) else {
          return false
        }
        try store.store.write(writes, excluding: nil)
        return true
      },
      pendingMigration: { store, prefix in reader.pendingMigration(in: store, prefix: prefix) }
    )
  }

  /// Describes an `@ObservableOnly` property: observable, never stored.
  public static func observableOnly<Value>(
    _ name: String, summary: String? = nil, property: ReferenceWritableKeyPath<Object, Value>
  ) -> Self {
    let documentation = DocumentationText(summary)
    return Self(
      name: name, key: nil, previousKeys: [], valueType: SettingsValueType(Value.self),
      typeName: nameOfType(Value.self), summary: documentation.summary,
      discussion: documentation.discussion, keyPath: property,
      read: { $0[keyPath: property] },
      readDefault: nil,
      write: { object, value in
        object[keyPath: property] = try cast(value, to: Value.self, key: name)
      },
      encode: { _ in nil },
      writeEncoded: { _, _ in
        throw SettingsValueError.undecodable(key: name, expected: nameOfType(Value.self))
      },
      reads: { _ in false },
      equalsDefault: { _, _ in true },
      schemaKey: { _ in nil },
      storedValue: { object, _, _ in object[keyPath: property] },
      refresh: { _, _, _ in nil },
      reset: { _, _ in },
      migrate: { _ in false },
      pendingMigration: { _, _ in nil }
    )
  }
}

/// A value given to a settings property does not fit it.
public enum SettingsValueError: Error, Equatable, CustomStringConvertible {
  /// `key` holds values of type `expected`; the value given was of type `actual`.
  case typeMismatch(key: String, expected: String, actual: String)
  /// `key` holds values of type `expected`; the stored form given does not decode as one, for
  /// `reason` when the codec can tell (a `Codable` value: the field missing or of another type).
  case undecodable(key: String, expected: String, reason: String? = nil)

  /// One line naming the key and both types, such as `'age' holds Int values; a value of type
  /// String was refused`.
  public var description: String {
    switch self {
    case .typeMismatch(let key, let expected, let actual):
      "'\(key)' holds \(expected) values; a value of type \(actual) was refused"
    case .undecodable(let key, let expected, let reason):
      "'\(key)' holds \(expected) values; the value given does not decode as one"
        + (reason.map { ": \($0)" } ?? "")
    }
  }
}

private func cast<Value>(_ value: Any, to: Value.Type, key: String) throws -> Value {
  guard let typed = value as? Value else {
    throw SettingsValueError.typeMismatch(
      key: key, expected: nameOfType(Value.self),
      actual: nameOfType(type(of: value)))
  }
  return typed
}

/// The value `codec` reads from `stored`; `nil` stands for an empty optional.
private func decoded<Value>(_ stored: Any?, by codec: DefaultsCodec<Value>, key: String) throws
  -> Value
{
  if let stored, let value = codec.decode(stored) { return value }
  if stored == nil, let none = (Value.self as? any OptionalType.Type)?.none as? Value {
    return none
  }
  throw SettingsValueError.undecodable(
    key: key, expected: nameOfType(Value.self),
    reason: stored.flatMap(codec.explainFailure))
}

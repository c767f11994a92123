import Foundation
package import ObservableDefaultsSchema

/// A settings object of any `ObservableSettings` class, with its properties bound to it: what a
/// tool needs to list, show and edit the object without knowing its class.
public struct AnySettings: @unchecked Sendable {
  // Sendable as far as the object is: tools use it on the thread that owns the object.

  /// The class name, such as `"Settings"`.
  public let typeName: String
  /// Where the object keeps its values.
  public var store: SettingsStoreInfo { storeInfo() }
  /// The object's observable properties in declaration order.
  public let properties: [AnySettingsProperty]
  /// The object itself.
  public let object: AnyObject

  private let storeInfo: () -> SettingsStoreInfo
  private let makeSchema: (SettingsSchema.Program) -> SettingsSchema?

  /// Wraps a settings object.
  public init<Settings: ObservableSettings>(_ object: Settings) {
    typeName = nameOfType(Settings.self)
    self.object = object
    storeInfo = { object._$settingsStore }
    properties = Settings._$settingsProperties.map {
      AnySettingsProperty($0, of: object._$settingsRoot)
    }
    makeSchema = { program in
      let store = object._$settingsStore
      return SettingsSchema(
        properties: Settings._$settingsProperties, of: object._$settingsRoot, store: store.store,
        prefix: store.prefix, program: program)
    }
  }

  /// The object's class and store as a published schema describes them, when other programs
  /// can open the store by name (see ``SettingsSchemaPublisher``).
  func schema(program: SettingsSchema.Program) -> SettingsSchema? { makeSchema(program) }

  /// The properties whose stored value waits for a migration, as `name: what will change`
  /// (see ``AnySettingsProperty/pendingMigration``), in declaration order.
  public var pendingMigrations: [String] {
    properties.compactMap { property in property.pendingMigration.map { "\(property.name): \($0)" }
    }
  }
}

/// One property of an ``AnySettings`` object, bound to that object.
public struct AnySettingsProperty: @unchecked Sendable {
  /// The property's name in Swift.
  public let name: String
  /// The storage key without the prefix; `nil` for an `@ObservableOnly` property.
  public let key: String?
  /// The storage key as stored, with the object's prefix.
  public var storageKey: String? { key.map { store().prefix + $0 } }
  /// The kind of value, as a published schema names it.
  package let valueType: SettingsValueType
  /// The Swift type as written.
  public let typeName: String
  /// The property's documentation comment.
  public let summary: String?

  private let store: () -> SettingsStoreInfo
  private let read: () -> Any
  private let readDefault: () -> Any?
  private let equalsDefault: () -> Bool
  private let write: (Any) throws -> Void
  private let encode: () -> Any?
  private let writeEncoded: (Any?) throws -> Void
  private let reads: (Any) -> Bool
  private let reset: () throws -> Void
  private let migration: () -> String?

  init<Settings: ObservableSettings>(_ property: SettingsProperty<Settings>, of object: Settings) {
    name = property.name
    key = property.key
    valueType = property.valueType
    typeName = property.typeName
    summary = property.summary
    store = { object._$settingsStore }
    read = { property.value(of: object) }
    readDefault = { property.defaultValue(of: object) }
    equalsDefault = { property.isDefault(object) }
    write = { try property.setValue($0, of: object) }
    encode = { property.propertyListValue(of: object) }
    writeEncoded = { try property.setValue(fromPropertyList: $0, of: object) }
    reads = { property.decodes($0) }
    reset = { try property.resetValue(of: object) }
    migration = { property.pendingMigration(of: object) }
  }

  /// The current value, read through the property's getter (Observation tracking sees it).
  public func value() -> Any { read() }
  /// The registered or declaration-time default; `nil` for an `@ObservableOnly` property.
  public func defaultValue() -> Any? { readDefault() }
  /// Whether the value equals its default.
  public var isDefault: Bool { equalsDefault() }
  /// Assigns a value through the property's setter.
  /// - Throws: ``SettingsValueError/typeMismatch(key:expected:actual:)`` for a value of another type.
  public func setValue(_ value: Any) throws { try write(value) }
  /// The current value in the form the store keeps it; see
  /// ``SettingsProperty/propertyListValue(of:)``.
  public func propertyListValue() -> Any? { encode() }
  /// Assigns the value read from a stored form (a raw value, a property-list object, JSON `Data`;
  /// `nil` for an empty optional); see ``SettingsProperty/setValue(fromPropertyList:of:)``.
  /// - Throws: ``SettingsValueError/undecodable(key:expected:reason:)`` when it does not decode.
  public func setValue(fromPropertyList object: Any?) throws { try writeEncoded(object) }
  /// Removes the stored value so the property reads its default again.
  /// - Throws: What the store throws when it refuses the removal, such as `PropertyListError`
  ///   while the suite's file does not parse; nothing changes then.
  public func resetValue() throws { try reset() }
  /// Whether the property's codec reads a value from `stored`; see
  /// ``SettingsProperty/decodes(_:)``.
  public func decodes(_ stored: Any) -> Bool { reads(stored) }
  /// What the property's next write, or a migration, will change in the store (a value under a
  /// previous key, or in an earlier version's form); `nil` when nothing. See
  /// ``SettingsProperty/pendingMigration(of:)``.
  public var pendingMigration: String? { migration() }
  /// The form the store holds under ``storageKey`` now (raw, not decoded); `nil` when nothing
  /// is stored or the property is `@ObservableOnly`.
  public func storedObject() -> Any? {
    storageKey.flatMap { store().store.object(forKey: $0) }
  }
}

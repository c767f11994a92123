import Foundation

/// The names the macros' expansions use, under one namespace.
///
/// Generated code cannot qualify names with the module (`ObservableDefaults.X` finds the macro
/// `@ObservableDefaults`), and a user type of the same name would shadow an unqualified one.
public enum _ObservableDefaultsRuntime {
  /// ``_DefaultsBinding``.
  public typealias Binding<Object: AnyObject & Observable & SendableMetatype> = _DefaultsBinding<
    Object
  >
  /// ``SettingsProperty``.
  public typealias Property<Object: AnyObject> = SettingsProperty<Object>
  /// ``SettingsStoreInfo``.
  public typealias StoreInfo = SettingsStoreInfo
  /// ``ObservableSettings``.
  public typealias Settings = ObservableSettings
  /// ``_KeyPathConstant``.
  public typealias KeyPath<Root, Value> = _KeyPathConstant<Root, Value>

  /// `codec`, the codec of the property at `keyPath`: the expansion keeps each property's codec
  /// as a constant of its class (`_codec_of_name`), made once, where `.automatic()` in the setter
  /// looked it up in a locked cache at every write. The key path only gives the value type, by
  /// which `.automatic()` picks its rule.
  public static func codec<Root, Value>(
    of keyPath: Swift.KeyPath<Root, Value>, _ codec: DefaultsCodec<Value>
  ) -> DefaultsCodec<Value> {
    codec
  }

  /// Any value without a better comparison counts as changed.
  @inlinable
  public static func hasChanged<Value>(_ newValue: Value, _ oldValue: Value) -> Bool { true }

  /// `Equatable` values changed when they are not equal.
  @inlinable
  public static func hasChanged<Value: Equatable>(_ newValue: Value, _ oldValue: Value) -> Bool {
    newValue != oldValue
  }

  /// Objects changed when they are different instances.
  @inlinable
  public static func hasChanged<Value: AnyObject>(_ newValue: Value, _ oldValue: Value) -> Bool {
    newValue !== oldValue
  }

  /// `Equatable` objects changed when they are not equal.
  @inlinable
  public static func hasChanged<Value: Equatable & AnyObject>(_ newValue: Value, _ oldValue: Value)
    -> Bool
  {
    newValue != oldValue
  }
}

extension _ObservableDefaultsRuntime {
  /// Whether an `@ObservableCloud` object runs in development mode: `developmentMode` was given,
  /// or the environment variable `OBSERVABLE_DEFAULTS_DEV_MODE` is `true`, or
  /// `XCODE_RUNNING_FOR_PREVIEWS` is `1` (the rules of the Apple-platform library).
  public static func isCloudDevelopmentMode(_ developmentMode: Bool) -> Bool {
    developmentMode || ProcessEnvironment.value("OBSERVABLE_DEFAULTS_DEV_MODE") == "true"
      || ProcessEnvironment.value("XCODE_RUNNING_FOR_PREVIEWS") == "1"
  }

  /// The store of an `@ObservableCloud` object: a store of its own in memory in development
  /// mode, else `NSUbiquitousKeyValueStore.default`.
  public static func cloudStore(developmentMode: Bool) -> NSUbiquitousKeyValueStore {
    isCloudDevelopmentMode(developmentMode) ? .inMemory() : .default
  }
}

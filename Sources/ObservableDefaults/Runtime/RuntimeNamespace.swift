/// The names the macros' expansions use, under one namespace.
///
/// Generated code cannot qualify names with the module (`ObservableDefaults.X` finds the macro
/// `@ObservableDefaults`), and a user type of the same name would shadow an unqualified one.
public enum _ObservableDefaultsRuntime {
  /// ``_DefaultsBinding``.
  public typealias Binding<Object: AnyObject & Observable & SendableMetatype> = _DefaultsBinding<Object>
  /// ``SettingsProperty``.
  public typealias Property<Object: AnyObject> = SettingsProperty<Object>
  /// ``SettingsStoreInfo``.
  public typealias StoreInfo = SettingsStoreInfo
  /// ``ObservableSettings``.
  public typealias Settings = ObservableSettings

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
  public static func hasChanged<Value: Equatable & AnyObject>(_ newValue: Value, _ oldValue: Value) -> Bool {
    newValue != oldValue
  }
}

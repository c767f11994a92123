import Foundation

/// Makes every stored `var` of a class an Observation-tracked property persisted in a UserDefaults suite.
///
/// ```swift
/// @ObservableDefaults
/// class Settings {
///   var name: String = "Fatbobman"
///   var age: Int = 20
///   var nickname: String? = nil
/// }
/// ```
///
/// Each persisted property is stored under `prefix` + its key (the property name, or the
/// `userDefaultsKey` of `@DefaultsKey` / `@DefaultsBacked`) in a property-list file shared safely by
/// processes (`PropertyListDefaults`, in `ObservableDefaultsCore`). Reading a property returns, in
/// order: the stored value, the value given to `register(defaults:)`, the declaration-time default.
/// Setting `nil` removes the key.
/// Changes made by another instance, another process or a hand edit of the file update the property
/// and notify observers of exactly the properties whose value changed. Given a Foundation
/// `UserDefaults` (which reports no changes on Linux), the object reads every value from it and
/// synchronizes every write; posting `UserDefaults.didChangeNotification` for it tells observers.
///
/// The macro also generates `init(userDefaults:ignoreExternalChanges:prefix:ignoredKeyPathsForExternalUpdates:)`
/// (unless `autoInit` is `false`) and the ``ObservableSettings`` description used by tools.
///
/// - Parameters:
///   - autoInit: Whether to generate the initializer. Without it, an initializer of your own
///     calls `observerStarter()` to follow external changes from the start.
///   - ignoreExternalChanges: Whether changes made outside the object skip observer notification
///     (the values still update).
///   - suiteName: The suite whose file (`$XDG_CONFIG_HOME/<suiteName>.plist`) stores the values;
///     empty for the standard domain. A string literal.
///   - prefix: Prepended to every key. A string literal without `.`.
///   - observeFirst: When `true`, properties are only observable unless marked `@DefaultsBacked`.
///   - limitToInstance: Whether a posted `UserDefaults.didChangeNotification` makes the object
///     read its keys again only when the notification's object is its store (`true`) or whatever
///     its object (`false`). Changes made through any store instance of the suite, by other
///     processes and by hand reach the object either way.
///   - defaultIsolationIsMainActor: Set to `true` in a module whose default isolation is `MainActor`;
///     external changes are then applied on the main actor.
@attached(member, names: arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: Observable, ObservableSettings)
public macro ObservableDefaults(
  autoInit: Bool = true,
  ignoreExternalChanges: Bool = false,
  suiteName: String = "",
  prefix: String = "",
  observeFirst: Bool = false,
  limitToInstance: Bool = true,
  defaultIsolationIsMainActor: Bool = false
) = #externalMacro(module: "ObservableDefaultsMacros", type: "ObservableDefaultsMacro")

/// Makes every stored `var` of a class an Observation-tracked property synchronised through the
/// cloud key-value store, `NSUbiquitousKeyValueStore`.
///
/// ```swift
/// @ObservableCloud
/// class CloudSettings {
///   var number = 1
///   @CloudKey(keyValueStoreKey: "user_theme") var theme: String = "light"
/// }
/// ```
///
/// Each persisted property is stored under `prefix` + its key in the store; a property reads the
/// stored value, else its declaration-time default; `nil` removes the key. Changes that arrive
/// from other devices (server changes, the initial sync, an account change) update exactly the
/// properties whose keys changed and notify their observers. The generated
/// `init(prefix:syncImmediately:developmentMode:)` takes its defaults from the macro's arguments.
///
/// - Parameters:
///   - autoInit: Whether to generate the initializer.
///   - prefix: Prepended to every key. A string literal without `.`.
///   - observeFirst: When `true`, properties are only observable unless marked `@CloudBacked`.
///   - syncImmediately: Whether every write is followed by `synchronize()`.
///   - developmentMode: Whether values live in memory only (also when the environment variable
///     `OBSERVABLE_DEFAULTS_DEV_MODE` is `true` or `XCODE_RUNNING_FOR_PREVIEWS` is `1`).
///   - defaultIsolationIsMainActor: Set to `true` in a module whose default isolation is `MainActor`.
@attached(member, names: arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: Observable, ObservableSettings)
public macro ObservableCloud(
  autoInit: Bool = true,
  prefix: String = "",
  observeFirst: Bool = false,
  syncImmediately: Bool = false,
  developmentMode: Bool = false,
  defaultIsolationIsMainActor: Bool = false
) = #externalMacro(module: "ObservableDefaultsMacros", type: "ObservableCloudMacro")

/// Persists a property of an `@ObservableCloud` class in the cloud store; added for you to every
/// stored `var` unless `observeFirst` is `true`.
/// - Parameters:
///   - keyValueStoreKey: The key (without the class's prefix); the property name when `nil`.
///   - previousKeys: Keys of earlier versions, newest first; see ``DefaultsKey(userDefaultsKey:previousKeys:)``.
@attached(accessor, names: named(get), named(set))
@attached(
  peer,
  names: prefixed(_), prefixed(_default_value_of_), prefixed(_keyPath_of_), prefixed(_codec_of_))
public macro CloudBacked(keyValueStoreKey: String? = nil, previousKeys: [String] = []) =
  #externalMacro(module: "ObservableDefaultsMacros", type: "CloudBackedMacro")

/// ``CloudBacked(keyValueStoreKey:previousKeys:)`` that also reads values stored in an earlier version's form.
///
/// ```swift
/// @CloudBacked(keyValueStoreKey: "timeout", convertingFrom: { (seconds: Int) in Double(seconds) / 60 })
/// var timeout: Double = 5  // minutes; version 1 stored whole seconds
/// ```
/// - Parameters:
///   - keyValueStoreKey: See ``CloudBacked(keyValueStoreKey:previousKeys:)``.
///   - previousKeys: See ``CloudBacked(keyValueStoreKey:previousKeys:)``.
///   - convertingFrom: See ``DefaultsKey(userDefaultsKey:previousKeys:convertingFrom:)``.
@attached(accessor, names: named(get), named(set))
@attached(
  peer,
  names: prefixed(_), prefixed(_default_value_of_), prefixed(_keyPath_of_), prefixed(_codec_of_))
public macro CloudBacked<Old, New>(
  keyValueStoreKey: String? = nil, previousKeys: [String] = [], convertingFrom: (Old) -> New
) =
  #externalMacro(module: "ObservableDefaultsMacros", type: "CloudBackedMacro")

/// Gives a persisted property of an `@ObservableCloud` class its own key.
/// - Parameters:
///   - keyValueStoreKey: The key (without the class's prefix); a string literal.
///   - previousKeys: Keys of earlier versions, newest first; see ``DefaultsKey(userDefaultsKey:previousKeys:)``.
@attached(peer)
public macro CloudKey(keyValueStoreKey: String? = nil, previousKeys: [String] = []) =
  #externalMacro(module: "ObservableDefaultsMacros", type: "MarkerMacro")

/// ``CloudKey(keyValueStoreKey:previousKeys:)`` that also reads values stored in an earlier version's form.
///
/// ```swift
/// @CloudKey(keyValueStoreKey: "timeout", convertingFrom: { (seconds: Int) in Double(seconds) / 60 })
/// var timeout: Double = 5  // minutes; version 1 stored whole seconds
/// ```
/// - Parameters:
///   - keyValueStoreKey: See ``CloudKey(keyValueStoreKey:previousKeys:)``.
///   - previousKeys: See ``CloudKey(keyValueStoreKey:previousKeys:)``.
///   - convertingFrom: See ``DefaultsKey(userDefaultsKey:previousKeys:convertingFrom:)``.
@attached(peer)
public macro CloudKey<Old, New>(
  keyValueStoreKey: String? = nil, previousKeys: [String] = [], convertingFrom: (Old) -> New
) =
  #externalMacro(module: "ObservableDefaultsMacros", type: "MarkerMacro")

/// Persists a property of an `@ObservableDefaults` class; added for you to every stored `var`
/// unless `observeFirst` is `true`.
/// - Parameters:
///   - userDefaultsKey: The storage key (without the class's prefix); the property name when `nil`.
///   - previousKeys: Keys of earlier versions, newest first; see ``DefaultsKey(userDefaultsKey:previousKeys:)``.
@attached(accessor, names: named(get), named(set))
@attached(
  peer,
  names: prefixed(_), prefixed(_default_value_of_), prefixed(_keyPath_of_), prefixed(_codec_of_))
public macro DefaultsBacked(userDefaultsKey: String? = nil, previousKeys: [String] = []) =
  #externalMacro(module: "ObservableDefaultsMacros", type: "DefaultsBackedMacro")

/// ``DefaultsBacked(userDefaultsKey:previousKeys:)`` that also reads values stored in an earlier version's form.
///
/// ```swift
/// @DefaultsBacked(userDefaultsKey: "timeout", convertingFrom: { (seconds: Int) in Double(seconds) / 60 })
/// var timeout: Double = 5  // minutes; version 1 stored whole seconds
/// ```
/// - Parameters:
///   - userDefaultsKey: See ``DefaultsBacked(userDefaultsKey:previousKeys:)``.
///   - previousKeys: See ``DefaultsBacked(userDefaultsKey:previousKeys:)``.
///   - convertingFrom: See ``DefaultsKey(userDefaultsKey:previousKeys:convertingFrom:)``.
@attached(accessor, names: named(get), named(set))
@attached(
  peer,
  names: prefixed(_), prefixed(_default_value_of_), prefixed(_keyPath_of_), prefixed(_codec_of_))
public macro DefaultsBacked<Old, New>(
  userDefaultsKey: String? = nil, previousKeys: [String] = [], convertingFrom: (Old) -> New
) =
  #externalMacro(module: "ObservableDefaultsMacros", type: "DefaultsBackedMacro")

/// Gives a persisted property of an `@ObservableDefaults` class its own storage key.
/// - Parameters:
///   - userDefaultsKey: The storage key (without the class's prefix); a string literal.
///   - previousKeys: Keys the property was stored under in earlier versions (without the class's
///     prefix), newest first; an array of string literals, none equal to the key. While the key
///     holds no value, the property reads the value of the first previous key that holds one;
///     the property's first write (or `migrateStoredValue(of:)` of its ``SettingsProperty``)
///     stores the key and removes every previous key in one write of the store, so other
///     processes and devices see the value under one key or the other, never both or neither.
///
/// ```swift
/// @DefaultsKey(userDefaultsKey: "displayName", previousKeys: ["name"]) var displayName = ""
/// ```
@attached(peer)
public macro DefaultsKey(userDefaultsKey: String? = nil, previousKeys: [String] = []) =
  #externalMacro(module: "ObservableDefaultsMacros", type: "MarkerMacro")

/// ``DefaultsKey(userDefaultsKey:previousKeys:)`` that also reads values stored in an earlier version's form.
///
/// ```swift
/// @DefaultsKey(userDefaultsKey: "timeout", convertingFrom: { (seconds: Int) in Double(seconds) / 60 })
/// var timeout: Double = 5  // minutes; version 1 stored whole seconds
/// ```
/// - Parameters:
///   - userDefaultsKey: See ``DefaultsKey(userDefaultsKey:previousKeys:)``.
///   - previousKeys: See ``DefaultsKey(userDefaultsKey:previousKeys:)``.
///   - convertingFrom: Reads a value stored in an earlier version's form: a closure (or function)
///     from the old type to the property's type, such as `{ (seconds: Int) in Double(seconds) / 60 }`.
///     The old type is stored by the same rules as a property's (raw value, property-list value,
///     JSON for `Codable`); the compiler checks that the result is the property's type. It applies
///     when the stored value does not decode as the property's type but does as the old one; the
///     first write (or `migrateStoredValue(of:)`) stores the converted value in the new form.
@attached(peer)
public macro DefaultsKey<Old, New>(
  userDefaultsKey: String? = nil, previousKeys: [String] = [], convertingFrom: (Old) -> New
) =
  #externalMacro(module: "ObservableDefaultsMacros", type: "MarkerMacro")

/// Makes a property observable but not persisted.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro ObservableOnly() =
  #externalMacro(module: "ObservableDefaultsMacros", type: "ObservableOnlyMacro")

/// Leaves a property alone: neither observable nor persisted.
@attached(peer)
public macro Ignore() = #externalMacro(module: "ObservableDefaultsMacros", type: "MarkerMacro")

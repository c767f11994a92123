import Foundation

/// A settings class made by `@ObservableDefaults` or `@ObservableCloud`, described for tools.
///
/// The macros add the conformance; tools such as the settings editor use only this description and
/// the Observation framework, never code written for one class.
public protocol ObservableSettings: AnyObject, Observable {
  /// The class that declares the property table: the macro's class itself, also for its
  /// subclasses.
  associatedtype SettingsRoot: ObservableSettings
  /// The property table: the observable properties, persisted and `@ObservableOnly`, in
  /// declaration order.
  static var _$settingsProperties: [SettingsProperty<SettingsRoot>] { get }
  /// This object, typed as ``SettingsRoot``.
  var _$settingsRoot: SettingsRoot { get }
  /// Where this instance keeps its values.
  var _$settingsStore: SettingsStoreInfo { get }
}

/// Where a settings object keeps its values.
public struct SettingsStoreInfo: @unchecked Sendable {
  // Sendable: the stores are thread-safe.

  /// The kind of store.
  public enum Kind: Sendable, Equatable {
    /// A UserDefaults suite (`@ObservableDefaults`).
    case userDefaults
    /// The cloud key-value store (`@ObservableCloud`).
    case cloud
  }

  /// The kind of store.
  public let kind: Kind
  /// The store the object reads and writes.
  public let store: any ObservableKeyValueStore
  /// The prefix in front of every storage key of the object.
  public let prefix: String

  /// Creates the description of a store.
  public init(kind: Kind, store: any ObservableKeyValueStore, prefix: String) {
    self.kind = kind
    self.store = store
    self.prefix = prefix
  }

  /// The UserDefaults store of a `@ObservableDefaults` object; `nil` for the cloud.
  public var userDefaults: UserDefaults? { store as? UserDefaults }

  /// The suite's name: the file's name without `.plist` when the file lies in
  /// `PreferencesDirectory.url`; `nil` for a file elsewhere and for the cloud.
  public var suiteName: String? {
    guard let fileURL,
      fileURL.deletingLastPathComponent().path == PreferencesDirectory.url.standardizedFileURL.path
    else { return nil }
    return fileURL.deletingPathExtension().lastPathComponent
  }

  /// The property-list file behind the store, when it has one.
  public var fileURL: URL? { (userDefaults as? PropertyListDefaults)?.fileURL }
}

extension UserDefaults {
  /// The value `register(defaults:)` gave for `key`, if any.
  func registeredValue(forKey key: String) -> Any? {
    if let store = self as? PropertyListDefaults { return store.registeredDefault(forKey: key) }
    return volatileDomain(forName: UserDefaults.registrationDomain)[key]
  }
}

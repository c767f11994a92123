import Foundation
// A user's module with InternalImportsByDefault on (as Package.swift builds this target): an
// import is internal unless it says otherwise, so a public settings class needs
// `public import ObservableDefaults` — its expansion makes the class `Observable`, and the
// generated initializer is public and names `UserDefaults`. Foundation stays an internal import,
// as in most app files: the expansions name what they need through `ObservableDefaults`.
public import ObservableDefaults

/// A public `@ObservableDefaults` class with every kind of property.
@ObservableDefaults(suiteName: "com.example.public-settings", prefix: "public_")
public final class PublicDefaultsSettings {
  /// Stored in the suite.
  public var name: String = "Fatbobman"
  @DefaultsKey(userDefaultsKey: "user-count") public var count: Int = 0
  public var nickname: String? = nil
  @ObservableOnly public var isEditing = false
  @Ignore public var scratch = 0
}

/// A public `@ObservableCloud` class, in development mode (values in memory only).
@ObservableCloud(developmentMode: true)
public final class PublicCloudSettings {
  public var theme: String = "light"
  @CloudKey(keyValueStoreKey: "cloud-count") public var count: Int = 0
  @ObservableOnly public var isSyncing = false
}

/// A public class whose initializer is the user's own (`autoInit: false`), for both macros.
@ObservableDefaults(autoInit: false)
public final class PublicManualSettings {
  public var volume: Double = 0.5

  public init(userDefaults: UserDefaults) {
    _userDefaults = userDefaults
    observerStarter()
  }
}

@ObservableCloud(autoInit: false, developmentMode: true)
public final class PublicManualCloudSettings {
  public var volume: Double = 0.5

  public init() {
    _cloudObserver = CloudObservation(host: self, prefix: _prefix)
  }
}

/// A type of the user's that has the name of a module the expansions use (a medical or
/// astronomical app may well have one).
public struct Observation: Sendable {
  public var value: Double
}

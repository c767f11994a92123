import Foundation
import ObservableDefaults
import Synchronization

/// Version 2 of a settings class whose `name` became `displayName` (it was `user_name` in
/// version 0), and whose other properties kept their keys.
@ObservableDefaults
final class RenamedSettings {
  @DefaultsKey(userDefaultsKey: "displayName", previousKeys: ["name", "user_name"])
  var displayName: String = "Anonymous"
  var age: Int = 20
}

/// The cloud version of ``RenamedSettings``, on a store the tests choose.
@ObservableCloud(autoInit: false)
final class RenamedCloudSettings {
  @CloudKey(keyValueStoreKey: "displayName", previousKeys: ["name"])
  var displayName: String = "Anonymous"

  init(store: NSUbiquitousKeyValueStore) {
    _$defaults.store = store
    _cloudObserver = CloudObservation(host: self, prefix: _prefix)
  }
}

/// A profile as version 1 stored it (JSON).
struct PlayerProfileV1: Codable {
  var name: String
}

/// Version 2 of the profile: it gained a non-optional level (the B34 case).
struct PlayerProfile: Codable, Equatable {
  var name: String
  var level: Int
}

/// Version 2 of the settings `Tests/Fixtures/migrations/com.example.evolving-v1.plist` holds
/// (see the README there).
@ObservableDefaults
final class EvolvedSettings {
  /// Minutes; version 1 stored whole seconds under `timeout` (the B35 case).
  @DefaultsKey(
    userDefaultsKey: "timeoutMinutes", previousKeys: ["timeout"],
    convertingFrom: { (seconds: Int) in Double(seconds) / 60 })
  var timeoutMinutes: Double = 5
  @DefaultsKey(convertingFrom: { (old: PlayerProfileV1) in PlayerProfile(name: old.name, level: 1) }
  )
  var profile = PlayerProfile(name: "Guest", level: 0)
  @DefaultsKey(userDefaultsKey: "displayName", previousKeys: ["name"])
  var displayName = "Anonymous"
  var age = 20
}

/// How often each schema step of the versioned classes below ran in this process.
let versionedStepRuns = Mutex<[String]>([])

/// Version 1 of a schema: `theme` became `appearanceTheme`.
let themeMigrations = SuiteMigrations([
  SuiteMigrationStep(to: 1, "theme becomes appearanceTheme") { suite in
    versionedStepRuns.withLock { $0.append("theme") }
    suite.rename("theme", to: "appearanceTheme")
  }
])

/// A suite with a schema version.
@ObservableDefaults
final class VersionedAppSettings: VersionedSettings {
  static let migrations = themeMigrations
  var appearanceTheme = "light"
}

/// A cloud class with the same schema, on a store the tests choose.
@ObservableCloud(autoInit: false)
final class VersionedCloudSettings: VersionedSettings {
  static let migrations = themeMigrations
  var appearanceTheme = "light"

  init(store: NSUbiquitousKeyValueStore) {
    _$defaults.store = store
    _cloudObserver = CloudObservation(host: self, prefix: _prefix)
  }
}

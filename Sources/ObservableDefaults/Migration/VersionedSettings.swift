import Foundation

/// A settings class with a schema version: its ``migrations`` run on its store before any of its
/// properties is read.
///
/// ```swift
/// @ObservableDefaults(suiteName: "com.example.app")
/// final class Settings: VersionedSettings {
///   nonisolated static let migrations = SuiteMigrations([
///     SuiteMigrationStep(to: 1, "theme moves into appearance.theme") { suite in
///       suite.rename("theme", to: "appearance.theme")
///     },
///   ])
///   @DefaultsKey(userDefaultsKey: "appearance.theme") var theme = "light"
/// }
/// ```
///
/// For an `@ObservableDefaults` class the steps run on the suite file (`PropertyListDefaults.migrate(_:)`:
/// under its lock, once per suite even with several processes starting at once, in one atomic
/// write); for an `@ObservableCloud` class on the device's copy of the cloud store
/// (`NSUbiquitousKeyValueStore.migrate(_:)`). Each store is migrated once per process. A
/// failure is reported to `Diagnostics` and leaves the store as it was; the object then reads
/// the values as they are. The steps see the store's raw keys, with the class's prefix.
/// A store handed to the object that is neither (a Foundation `UserDefaults`) is not migrated.
public protocol VersionedSettings: ObservableSettings {
  /// The class's schema: its steps in version order. `nonisolated` in a main-actor class.
  static var migrations: SuiteMigrations { get }
}

/// Runs the migrations of ``VersionedSettings`` classes, once per store and schema version in
/// this process.
enum VersionedSettingsMigration {
  private static let done = AnnotatedMutex<Set<String>>([])

  /// Migrates `store` when `Object` is a ``VersionedSettings`` class.
  static func run(for object: Any.Type, on store: any ObservableKeyValueStore) {
    guard let versioned = object as? any VersionedSettings.Type else { return }
    let migrations = versioned.migrations
    let identity: String
    switch store {
    case let defaults as PropertyListDefaults: identity = defaults.fileURL.path
    case let cloud as NSUbiquitousKeyValueStore: identity = "cloud \(ObjectIdentifier(cloud))"
    default: return
    }
    let isNew = done.withLock { $0.insert("\(identity) \(migrations.version)").inserted }
    guard isNew else { return }
    do {
      if let defaults = store as? PropertyListDefaults {
        try defaults.migrate(migrations)
      } else if let cloud = store as? NSUbiquitousKeyValueStore {
        try cloud.migrate(migrations)
      }
    } catch {
      done.withLock { _ = $0.remove("\(identity) \(migrations.version)") }
      Diagnostics.report(
        "ObservableDefaults",
        "\(object): the migration to schema version \(migrations.version) failed, the values stay as they were: \(error)"
      )
    }
  }
}

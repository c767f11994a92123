// parity-swift5: the two shapes of real app code that once did not compile here, built in
// Swift 5 mode with the main actor as default isolation and InternalImportsByDefault (as many app
// modules are): a settings class whose own initializer copies the one the Apple-platform macro
// generates, and a `nonisolated` class, public (which is why ObservableDefaults is imported
// publicly). `ParityProgramTests` runs it with `XDG_CONFIG_HOME` set to an empty folder and checks
// what it prints.
import Foundation
public import ObservableDefaults

/// The copied initializer: it assigns every member the original's generated one assigns.
@ObservableDefaults(autoInit: false, prefix: "copied_")
final class CopiedInitializerSettings {
  var muted = false

  init(
    userDefaults: UserDefaults? = nil, ignoreExternalChanges: Bool? = nil, prefix: String? = nil,
    ignoredKeyPathsForExternalUpdates: [PartialKeyPath<CopiedInitializerSettings>] = []
  ) {
    if let userDefaults { _userDefaults = userDefaults }
    if let ignoreExternalChanges { _isExternalNotificationDisabled = ignoreExternalChanges }
    if let prefix { _prefix = prefix }
    _ignoredKeyPathsForExternalUpdates = ignoredKeyPathsForExternalUpdates
    if !_isExternalNotificationDisabled {
      observerStarter(observableKeysBlacklist: ignoredKeyPathsForExternalUpdates)
    }
  }
}

/// Opted out of the module's main-actor default, as Apple's `@Observable` allows.
@ObservableDefaults
public nonisolated final class NonisolatedSettings {
  public var name = "Fatbobman"
}

/// Takes an observable type's metatype off the main actor (a `SendableMetatype` requirement).
nonisolated func typeName<T: Observable>(_ type: T.Type) -> String {
  String(describing: type)
}

let copied = CopiedInitializerSettings(
  ignoredKeyPathsForExternalUpdates: [\CopiedInitializerSettings.muted])
copied.muted = true
print("copied initializer:", CopiedInitializerSettings().muted)
let nonisolated = NonisolatedSettings()
nonisolated.name = "Swift 5"
print("nonisolated:", NonisolatedSettings().name, typeName(NonisolatedSettings.self))

import Foundation
import ObservableDefaults
import Testing

/// A settings class whose own initializer is a copy of the one the Apple-platform macro
/// generates (apps write it with `autoInit: false` to add parameters): it assigns every private
/// member that initializer assigns, `_ignoredKeyPathsForExternalUpdates` included.
@ObservableDefaults(autoInit: false, prefix: "copied_")
final class CopiedInitializerSettings {
  var muted = false
  var volume = 0.5

  init(
    userDefaults: UserDefaults? = nil,
    ignoreExternalChanges: Bool? = nil,
    prefix: String? = nil,
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

  /// What the class holds as ignored key paths (the member the copied initializer assigned).
  var ignoredKeyPaths: [PartialKeyPath<CopiedInitializerSettings>] {
    _ignoredKeyPathsForExternalUpdates
  }
}

@Suite struct CopiedInitializerTests {
  @Test func theOriginalsGeneratedInitializerCompilesAndBehavesTheSame() {
    let suite = TemporarySuite()
    let store = suite.store()
    let settings = CopiedInitializerSettings(
      userDefaults: store, ignoredKeyPathsForExternalUpdates: [\CopiedInitializerSettings.muted])
    #expect(settings.ignoredKeyPaths == [\CopiedInitializerSettings.muted])
    let muted = ChangeCounter(settings, \.muted)
    let volume = ChangeCounter(settings, \.volume)
    store.set(true, forKey: "copied_muted")
    store.set(0.25, forKey: "copied_volume")
    #expect(settings.muted == true)
    #expect(settings.volume == 0.25)
    #expect(muted.count == 0)
    #expect(volume.count == 1)
  }
}

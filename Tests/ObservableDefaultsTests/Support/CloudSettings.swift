import Foundation
import ObservableDefaults

/// The seed documentation's cloud example, in development mode (values in memory only).
@ObservableCloud(developmentMode: true)
final class DevelopmentCloudSettings {
  @CloudKey(keyValueStoreKey: "user_display_name")
  var username: String = "Fatbobman"
  var theme: Theme = .system
  var profile = Profile()
  var nickname: String? = "nick"
  @ObservableOnly var localCache: String = ""
  @Ignore var temporaryData: String = ""
}

/// A cloud class in production mode on a container the tests choose (a manual initializer, as
/// the seed documentation shows for `autoInit: false`).
@ObservableCloud(autoInit: false)
final class SyncedSettings {
  var name: String = "Fatbobman"
  var age: Int = 20
  var nickname: String? = "nick"

  init(store: NSUbiquitousKeyValueStore) {
    _$defaults.store = store
    _cloudObserver = CloudObservation(host: self, prefix: _prefix)
  }
}

/// The seed's observe-first cloud example.
@ObservableCloud(observeFirst: true, developmentMode: true)
final class ObserveFirstCloudSettings {
  var localSetting: String = "local"
  @CloudBacked(keyValueStoreKey: "user_theme") var theme: String = "light"
}

import Foundation
import ObservableDefaults

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

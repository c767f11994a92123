import Foundation
import ObservableDefaults
import Observation

/// The persisted settings class every measure reads and writes.
@ObservableDefaults
final class BenchmarkSettings {
  var name: String = "Fatbobman"
  var counter: Int = 0
  var blob = Data()
}

/// The same property in a plain `@Observable` class: the baseline of a read.
@Observable
final class PlainSettings {
  var name: String = "Fatbobman"
}

/// The same counter in an `@ObservableCloud` class on a store the measure chooses: a cloud
/// property's write.
@ObservableCloud(autoInit: false)
final class BenchmarkCloudSettings {
  var counter: Int = 0

  init(store: NSUbiquitousKeyValueStore) {
    _$defaults.store = store
    _cloudObserver = CloudObservation(host: self, prefix: _prefix)
  }
}

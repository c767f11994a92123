import ObservableDefaults
import Observation

/// The persisted settings class every measure reads and writes.
@ObservableDefaults
final class BenchmarkSettings {
  var name: String = "Fatbobman"
  var counter: Int = 0
}

/// The same property in a plain `@Observable` class: the baseline of a read.
@Observable
final class PlainSettings {
  var name: String = "Fatbobman"
}

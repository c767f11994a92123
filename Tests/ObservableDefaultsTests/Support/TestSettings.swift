import ObservableDefaults

/// The seed documentation's first example.
@ObservableDefaults
final class Settings {
  /// The user's name.
  var name: String = "Fatbobman"
  var age: Int = 20
  var nickname: String? = nil
}

/// A custom key, a prefix and an observable-only property.
@ObservableDefaults(prefix: "app_")
final class Preferences {
  @DefaultsKey(userDefaultsKey: "volume-level") var volume: Double = 0.5
  var muted = false
  @ObservableOnly var isEditing = false
  @Ignore var scratch = 0
}

/// The App Group case of the Apple library: react to changes made through any store instance.
@ObservableDefaults(limitToInstance: false)
final class SharedGroupSettings {
  var name: String = "Fatbobman"
  var age: Int = 20
}

import ObservableDefaults

/// The seed documentation's first example.
@ObservableDefaults
final class ProfileSettings {
  /// The user's name.
  var name: String = "Fatbobman"
  var age: Int = 20
  var nickname: String? = nil
}

/// A custom key, a narrow integer and an observable-only property.
@ObservableDefaults(prefix: "look_")
final class LookSettings {
  @DefaultsKey(userDefaultsKey: "ui-theme") var theme: String = "system"
  var columns: UInt8 = 80
  var showsToolbar = true
  @ObservableOnly var isPreviewing = false
}

import ObservableDefaults

/// The seed example: who the user is. Stored in the suite `com.example.demo`.
@ObservableDefaults(suiteName: "com.example.demo")
final class Settings {
  /// The name shown in greetings.
  var name: String = "Fatbobman"
  /// The user's age in years.
  var age: Int = 20
  /// A short name; nil when the user has none.
  var nickname: String? = nil
}

/// How the demo looks: a custom storage key and a property that is observed but never stored.
/// Stored in the suite `com.example.appearance`.
@ObservableDefaults(suiteName: "com.example.appearance")
final class AppearanceSettings {
  /// The colour theme: system, light or dark.
  @DefaultsKey(userDefaultsKey: "ui-theme") var theme: String = "system"
  /// The text size in points.
  var fontSize: Double = 13
  /// Whether the toolbar is shown.
  var showsToolbar: Bool = true
  /// Whether a preview is open right now (not stored).
  @ObservableOnly var isPreviewing: Bool = false
}

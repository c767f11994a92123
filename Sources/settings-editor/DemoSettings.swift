import ObservableDefaults

/// The seed example: who the user is. Stored in the suite `com.example.demo`.
///
/// Isolated to the main actor, as an app's settings often are: writes from other processes
/// reach it through `MainActorDelivery`, which the editor points at its own loop.
@MainActor
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

/// The editor's look, a fixed set of choices (edited with ←/→).
enum EditorTheme: String, CaseIterable, Codable {
  case system, light, dark, highContrast
}

/// How often something happens, an enumeration over integer raw values.
enum Frequency: Int, CaseIterable {
  case never = 0
  case daily = 1
  case weekly = 7
  case monthly = 30
}

/// A window's place on screen, a `Codable` struct stored as JSON.
struct WindowFrame: Codable, Equatable {
  var x = 0
  var y = 0
  var width = 800
  var height = 600
}

/// One value of every kind the macros store, so every editor of `settings-editor` can be tried.
/// Stored in the suite `com.example.types`.
@ObservableDefaults(suiteName: "com.example.types")
final class EveryTypeSettings {
  /// The colour theme of the editor.
  var theme: EditorTheme = .system
  /// How often to look for updates.
  var updateCheck: Frequency = .weekly
  /// Where the main window was last.
  var windowFrame = WindowFrame()
  /// When the settings were last synchronised.
  var lastSync = Date(timeIntervalSince1970: 1_767_225_600)
  /// The project's web site.
  var homepage = URL(string: "https://github.com/fatbobman/ObservableDefaults")!
  /// Files opened lately, newest first.
  var recentFiles: [String] = ["notes.md", "todo.txt"]
  /// Font size per language.
  var fontSizes: [String: Double] = ["swift": 13, "markdown": 15]
  /// A token kept as bytes.
  var token = Data([0xDE, 0xAD, 0xBE, 0xEF])
  /// The volume, 0…255.
  var volume: UInt8 = 128
  /// A signed offset in 16 bits.
  var offset: Int16 = -4
  /// Line spacing as a factor.
  var lineSpacing: Float = 1.2
  /// The accent colour, when one was chosen.
  var accent: EditorTheme? = nil
  /// The proxy to use, when there is one.
  var proxy: URL? = nil
  /// The last window frame in full-screen mode, when there was one.
  var fullScreenFrame: WindowFrame? = nil
  /// A greeting in any script: 日本語, emoji 🎉, combining é.
  var greeting = "こんにちは 🎉"
}

/// Settings that follow the user across devices, on the cloud key-value store (in
/// `$XDG_DATA_HOME/ObservableDefaults/CloudContainers`).
@ObservableCloud(prefix: "demo_")
final class CloudSettings {
  /// The name shown to other devices.
  var displayName: String = "Fatbobman"
  /// Whether the reading position syncs.
  var syncsReadingPosition: Bool = true
  /// The theme on every device.
  var theme: EditorTheme = .system
}

/// The demo's account settings at schema version 2 (suite `com.example.account`): version 1
/// stored the name under `user_name` and the session timeout in whole seconds under
/// `sessionTimeout`. `settings-editor migrate com.example.account` brings a suite written by
/// version 1 up to date (`--dry-run` shows what it would change).
@ObservableDefaults(suiteName: "com.example.account")
final class AccountSettings: VersionedSettings {
  nonisolated static let migrations = SuiteMigrations([
    SuiteMigrationStep(to: 1, "user_name becomes displayName") { suite in
      suite.rename("user_name", to: "displayName")
    },
    SuiteMigrationStep(to: 2, "sessionTimeout in seconds becomes sessionMinutes") { suite in
      try suite.convert("sessionTimeout", from: Int.self) { Double($0) / 60 }
      suite.rename("sessionTimeout", to: "sessionMinutes")
    },
  ])
  /// The name shown to others.
  var displayName: String = ""
  /// Minutes of inactivity before signing out.
  var sessionMinutes: Double = 30
}

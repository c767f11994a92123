import ObservableDefaults

/// "Optional types".
enum Optionals {
  @ObservableDefaults
  class SettingsWithOptionals {
    var username: String? = nil
    var age: Int? = 25
    var isEnabled: Bool? = true

    @DefaultsKey(userDefaultsKey: "custom-optional-key")
    var customOptional: String? = nil
  }

  @ObservableCloud
  class CloudSettingsWithOptionals {
    var cloudUsername: String? = nil
    var preferences: [String]? = nil

    @CloudKey(keyValueStoreKey: "user-settings")
    var userSettings: [String: String]? = nil
  }
}

/// "Codable types".
enum CodableValues {
  @ObservableDefaults
  class LocalStore {
    var people: People = .init(name: "fat", age: 10)
  }

  struct People: Codable {
    var name: String
    var age: Int
  }

  @ObservableCloud
  class CloudStore {
    var userProfile: UserProfile = .init(name: "fat", preferences: .init())
  }

  struct UserProfile: Codable {
    var name: String
    var preferences: UserPreferences
  }

  struct UserPreferences: Codable {
    var theme: String = "light"
    var fontSize: Int = 14
  }
}

/// "RawRepresentable types".
enum RawRepresentableValues {
  enum Theme: String {
    case light
    case dark
    case system
  }

  @ObservableDefaults
  class AppearanceSettings {
    var theme: Theme = Theme.system
  }
}

/// "Integration with other Observable objects": the README's view model (its SwiftUI view is
/// Apple-only; `main.swift` runs its buttons' actions).
enum Integration {
  @Observable
  class ViewState {
    var selection = 10
    var isLogin = false
    let localSettings = PropertyAttributes.LocalSettings()  // UserDefaults-backed
    let cloudSettings = PropertyAttributes.CloudSettings()  // iCloud-backed
  }
}

/// "Previews": the two workarounds for `@Previewable` (the `#Preview` blocks are Apple-only).
enum Previews {
  @ObservableCloud
  class CloudSettings {
    var item: Bool = true

    // Add this convenience initializer for Preview support
    convenience init() {
      self.init(prefix: nil, syncImmediately: false, developmentMode: true)
    }
  }

  enum Shared {
    @ObservableCloud
    class CloudSettings {
      var item: Bool = true

      static let shared = CloudSettings()
    }
  }
}

/// "Default values".
enum DefaultValues {
  @ObservableDefaults(autoInit: false)  // @ObservableCloud(autoInit: false) is the same
  class User {
    var username = "guest"  // ← Declaration default: "guest"
    var age: Int = 18  // ← Declaration default: 18

    init(username: String, age: Int) {
      self.username = username  // Current value: "alice", default remains: "guest"
      self.age = age  // Current value: 25, default remains: 18
      // ... other initialization code, like observerStarter(observableKeysBlacklist: [])
    }
  }
}

/// "Main actor isolation".
enum MainActorIsolation {
  // For projects with defaultIsolation = MainActor
  @ObservableDefaults(defaultIsolationIsMainActor: true)
  class Settings {
    var name: String = "Fatbobman"
    var age: Int = 20
  }

  @ObservableCloud(defaultIsolationIsMainActor: true)
  class CloudSettings {
    var username: String = "Fatbobman"
    var theme: String = "light"
  }
}

/// "App Groups".
enum AppGroups {
  @ObservableDefaults(
    suiteName: "group.com.yourcompany.app",
    prefix: "myapp_",  // IMPORTANT: Use a unique prefix
    limitToInstance: false  // Enable cross-process notifications
  )
  class SharedSettings {
    var lastUpdate: Date = Date()
    var displayCount: Int = 0
  }

  // App Group suite
  @ObservableDefaults(
    suiteName: "group.myapp",
    prefix: "myapp_",  // Only respond to keys starting with "myapp_"
    limitToInstance: false
  )
  class AppGroupSettings {
    var sharedData: String = "data"  // Stored as "myapp_sharedData"
  }

  // Different App Group suite
  @ObservableDefaults(
    suiteName: "group.anotherapp",
    prefix: "anotherapp_",  // Only respond to keys starting with "anotherapp_"
    limitToInstance: false
  )
  class AnotherAppSettings {
    var sharedData: String = "other"  // Stored as "anotherapp_sharedData"
  }
}

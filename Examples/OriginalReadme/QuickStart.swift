// The examples of the Apple-platform ObservableDefaults README (tag 1.8.6), in its order. Each
// section is an enum so that the README's repeated class names (`Settings`, `CloudSettings`)
// can stand side by side; the declarations inside are the README's lines, unchanged. Where a
// line cannot be the same on Linux, the comment above it says what the README has.
import ObservableDefaults

/// "Quick Start".
enum QuickStart {
  @ObservableDefaults
  class Settings {
    var name: String = "Fatbobman"
    var age: Int = 20
    var nickname: String? = nil  // Optional support
  }

  // Not defined in the README: the two enums its cloud example uses.
  enum Colors: String { case red, green }
  enum FontStyle: String { case style1, style2 }

  @ObservableCloud
  class CloudSettings {
    var number = 1
    var color: Colors = .red
    var style: FontStyle = .style1
    var cloudName: String? = nil  // Optional support
  }
}

/// "Property attributes".
enum PropertyAttributes {
  @ObservableDefaults
  public class LocalSettings {
    @DefaultsKey(userDefaultsKey: "firstName")
    public var name: String = "fat"

    public var age = 109  // Automatically backed by UserDefaults

    @ObservableOnly
    public var height = 190  // Observable only, not persisted

    @Ignore
    public var weight = 10  // Neither observable nor persisted
  }

  @ObservableCloud
  public class CloudSettings {
    @CloudKey(keyValueStoreKey: "user_display_name")
    public var username: String = "Fatbobman"

    public var theme: String = "light"  // Automatically cloud-backed

    @ObservableOnly
    public var localCache: String = ""  // Observable only, not synced to cloud

    @Ignore
    public var temporaryData: String = ""  // Neither observable nor persisted
  }
}

/// "Macro parameters".
enum MacroParameters {
  @ObservableDefaults(autoInit: false, ignoreExternalChanges: true, prefix: "myApp_")
  class Settings {
    @DefaultsKey(userDefaultsKey: "fullName")
    var name: String = "Fatbobman"
  }

  // For App Group cross-process synchronization
  @ObservableDefaults(
    suiteName: "group.myapp",
    prefix: "myapp_",
    limitToInstance: false
  )
  class SharedSettings {
    var lastUpdate: Date = Date()
  }

  @ObservableCloud(
    autoInit: true,
    prefix: "myApp_",
    observeFirst: false,
    syncImmediately: true,
    developmentMode: false
  )
  class CloudSettings {
    @CloudKey(keyValueStoreKey: "user_theme")
    var theme: String = "light"
  }

  enum Development {
    @ObservableCloud(developmentMode: true)
    class CloudSettings {
      var setting1: String = "value1"  // Uses memory storage
      var setting2: Int = 42  // Uses memory storage
    }
  }
}

/// "Custom initializers" (`autoInit: false`).
enum CustomInitializers {
  @ObservableDefaults(autoInit: false)
  class Settings {
    var name: String = "Fatbobman"

    // For @ObservableDefaults
    init() {
      observerStarter()  // Start listening for UserDefaults changes
    }
  }

  @ObservableCloud(autoInit: false)
  class CloudSettings {
    var name: String = "Fatbobman"

    // For @ObservableCloud
    init() {
      // Start Cloud Observation only in production mode
      if !_developmentMode_ {
        _cloudObserver = CloudObservation(host: self, prefix: _prefix)
      }
    }
  }
}

/// "Observe first".
enum ObserveFirst {
  @ObservableDefaults(observeFirst: true)
  public class LocalSettings {
    public var name: String = "fat"  // Observable only
    public var age = 109  // Observable only

    @DefaultsBacked(userDefaultsKey: "myHeight")
    public var height = 190  // Observable and persisted to UserDefaults

    @Ignore
    public var weight = 10  // Neither observable nor persisted
  }

  @ObservableCloud(observeFirst: true)
  public class CloudSettings {
    public var localSetting: String = "local"  // Observable only
    public var tempData = "temp"  // Observable only

    @CloudBacked(keyValueStoreKey: "user_theme")
    public var theme: String = "light"  // Observable and synced to iCloud

    @Ignore
    public var cache = "cache"  // Neither observable nor persisted
  }
}

import Foundation
import ObservableDefaults

// The examples of the Apple-platform ObservableDefaults documentation, unchanged but for the
// store they are given in the tests.

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

@ObservableDefaults(observeFirst: true)
public class ObserveFirstSettings {
  public var name: String = "fat"  // Observable only
  public var age = 109  // Observable only

  @DefaultsBacked(userDefaultsKey: "myHeight")
  public var height = 190  // Observable and persisted to UserDefaults

  @Ignore
  public var weight = 10  // Neither observable nor persisted
}

@ObservableDefaults(autoInit: false, ignoreExternalChanges: true, prefix: "myApp_")
class ManualInitSettings {
  @DefaultsKey(userDefaultsKey: "fullName")
  var name: String = "Fatbobman"

  init(store: UserDefaults) {
    _userDefaults = store
    name = "Set in init"
    observerStarter()
  }
}

@ObservableDefaults
class LocalStore {
  var people: People = .init(name: "fat", age: 10)
}

struct People: CodableUserDefaultsPropertyListValue, Equatable {
  var name: String
  var age: Int
}

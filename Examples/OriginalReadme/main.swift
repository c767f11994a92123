// readme-examples: runs the usage lines of the Apple-platform ObservableDefaults README against
// this library and prints what they read. Run it with `XDG_CONFIG_HOME` and `XDG_DATA_HOME` set
// to an empty folder (the tests do): it writes the standard suite, two App Group suites and the
// default cloud container there. `ReadmeExamplesTests` checks every line it prints.
import ObservableDefaults

/// Prints one result line.
func show(_ label: String, _ values: Any...) {
  print(label + ": " + values.map { "\($0)" }.joined(separator: " "))
}

// Quick Start: the SwiftUI view binds `settings.name`; a text field's edit is an assignment.
let settings = QuickStart.Settings()
let cloudSettings = QuickStart.CloudSettings()
show("quick start", settings.name, settings.age, settings.nickname as Any)
settings.name = "Ann"
settings.nickname = "Annie"
cloudSettings.color = .green
show(
  "quick start, new objects", QuickStart.Settings().name, QuickStart.Settings().nickname ?? "nil",
  QuickStart.CloudSettings().color)

// Property attributes and the generated initializers.
let local = PropertyAttributes.LocalSettings(
  userDefaults: .standard, ignoreExternalChanges: false, prefix: "myApp_")
local.name = "Bob"
local.height = 180
local.weight = 70
let cloud = PropertyAttributes.CloudSettings(
  prefix: "myApp_", syncImmediately: true, developmentMode: false)
cloud.username = "CloudBob"
cloud.localCache = "cached"
// README: UserDefaults.standard. On Linux, Foundation's posts no change notification and writes
// only on synchronize(); PropertyListDefaults.standard is the same standard domain, done right.
let standard = PropertyListDefaults.standard
show(
  "attributes, stored", standard.string(forKey: "myApp_firstName") ?? "nil",
  standard.object(forKey: "myApp_height") ?? "nil", standard.object(forKey: "myApp_weight") ?? "nil"
)
show(
  "attributes, cloud",
  NSUbiquitousKeyValueStore.default.string(forKey: "myApp_user_display_name") ?? "nil",
  NSUbiquitousKeyValueStore.default.object(forKey: "myApp_localCache") ?? "nil")

// Macro parameters.
let shared = MacroParameters.SharedSettings()
shared.lastUpdate = Date(timeIntervalSince1970: 1_000_000)
let themed = MacroParameters.CloudSettings()
themed.theme = "dark"
let development = MacroParameters.Development.CloudSettings()
development.setting2 = 43
show(
  "parameters",
  PropertyListDefaults(suiteName: "group.myapp")!.object(forKey: "myapp_lastUpdate") ?? "nil",
  NSUbiquitousKeyValueStore.default.string(forKey: "myApp_user_theme") ?? "nil",
  development.setting2, development._developmentMode_,
  NSUbiquitousKeyValueStore.default.object(forKey: "setting2") ?? "nil")

// Custom initializers.
let custom = CustomInitializers.Settings()
standard.set("Changed elsewhere", forKey: "name")
show("custom initializers", custom.name, CustomInitializers.CloudSettings().name)
standard.removeObject(forKey: "name")

// Observe first.
let observeFirst = ObserveFirst.LocalSettings()
observeFirst.name = "not stored"
observeFirst.height = 200
let observeFirstCloud = ObserveFirst.CloudSettings()
observeFirstCloud.tempData = "not synced"
observeFirstCloud.theme = "blue"
show(
  "observe first", standard.object(forKey: "name") ?? "nil", standard.integer(forKey: "myHeight"),
  NSUbiquitousKeyValueStore.default.string(forKey: "user_theme") ?? "nil",
  NSUbiquitousKeyValueStore.default.object(forKey: "tempData") ?? "nil")

// Optionals: nil removes the key, and the declaration default comes back.
let optionals = Optionals.SettingsWithOptionals()
optionals.age = 30
optionals.age = nil
optionals.customOptional = "custom"
let cloudOptionals = Optionals.CloudSettingsWithOptionals()
cloudOptionals.userSettings = ["a": "b"]
show(
  "optionals", optionals.age ?? "nil", standard.string(forKey: "custom-optional-key") ?? "nil",
  cloudOptionals.userSettings ?? [:],
  NSUbiquitousKeyValueStore.default.dictionary(forKey: "user-settings") ?? [:])

// Codable values are stored as JSON.
let store = CodableValues.LocalStore()
store.people = .init(name: "Ann", age: 30)
let cloudStore = CodableValues.CloudStore()
cloudStore.userProfile.preferences.fontSize = 18
show(
  "codable", String(decoding: standard.data(forKey: "people") ?? Data(), as: UTF8.self),
  CodableValues.CloudStore().userProfile.preferences.fontSize)

// RawRepresentable values are stored as their raw value; writing the documented formats directly.
let appearance = RawRepresentableValues.AppearanceSettings(prefix: "app_")
let appStore = CodableValues.LocalStore(prefix: "app_")
let defaults = standard  // README: UserDefaults.standard
let theme = RawRepresentableValues.Theme.dark
let profile = CodableValues.People(name: "Direct", age: 5)
// For RawRepresentable-backed property (rawValue: String)
defaults.set(theme.rawValue, forKey: "app_theme")
// For Codable-only property
defaults.set(try JSONEncoder().encode(profile), forKey: "app_people")
show("raw representable", appearance.theme, appStore.people.name, appStore.people.age)

// Integration: the view's buttons.
let state = Integration.ViewState()
state.localSettings.name = "User 7"
state.cloudSettings.username = "CloudUser 7"
show(
  "integration", PropertyAttributes.LocalSettings().name,
  PropertyAttributes.CloudSettings().username)

// Previews.
show(
  "previews", Previews.CloudSettings()._developmentMode_, Previews.Shared.CloudSettings.shared.item)

// Default values.
let user = DefaultValues.User(username: "alice", age: 25)
user.username = "bob"  // Changes current value, default value stays "guest"
// README: let defaults = UserDefaults.standard
let userDefaults = PropertyListDefaults.standard
userDefaults.register(defaults: ["username": "registered-user"])
userDefaults.set("bob", forKey: "username")
userDefaults.set(25, forKey: "age")
userDefaults.removeObject(forKey: "username")
userDefaults.removeObject(forKey: "age")
print(user.username)  // "registered-user" (registered default wins)
print(user.age)  // 18 (no registered default, so declaration default is used)

// Main actor isolation.
show("main actor", MainActorIsolation.Settings().name, MainActorIsolation.CloudSettings().theme)

// App Groups: each class sees only its prefix in its own suite.
let appGroup = AppGroups.AppGroupSettings()
let anotherApp = AppGroups.AnotherAppSettings()
PropertyListDefaults(suiteName: "group.myapp")!.set("changed", forKey: "myapp_sharedData")
AppGroups.SharedSettings().displayCount += 1
show(
  "app groups", appGroup.sharedData, anotherApp.sharedData,
  PropertyListDefaults(suiteName: "group.com.yourcompany.app")!.integer(
    forKey: "myapp_displayCount"))

try standard.flush()

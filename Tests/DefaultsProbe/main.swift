// defaults-probe: another process for the library's tests. It opens a suite file the way an app
// would, through an `@ObservableDefaults` class, and changes it.
//
//   defaults-probe set <file.plist> name <text>     sets ProbeSettings.name
//   defaults-probe set <file.plist> age <integer>   sets ProbeSettings.age
//   defaults-probe remove <file.plist> <key>        removes a key from the suite
//   defaults-probe cloud-set <folder> name <text>   sets ProbeCloudSettings.name in the container
//                                                   "tests" under <folder>
//   defaults-probe cloud-mode                       prints whether an @ObservableCloud object with
//                                                   the generated init is in development mode, sets
//                                                   it, and prints what a new object reads
//   defaults-probe default-cloud-set <key> <string>
//                                                   NSUbiquitousKeyValueStore.default (its backend
//                                                   chosen by the environment, through the engines
//                                                   the umbrella registers): sets one string,
//                                                   synchronizes, prints "<backend> <status summary>"
//   defaults-probe default-cloud-get <key>          the same store: synchronizes, prints "<backend>
//                                                   <status summary>" and the string value (empty
//                                                   when none) on a second line
//   defaults-probe default-cloud-peek <key>         the same store, without synchronizing: prints the
//                                                   string value (empty when none) and on a second
//                                                   line the milliseconds the first read took
//   defaults-probe foundation <suite>               hands Foundation's UserDefaults(suiteName:) to
//                                                   ProbeSettings, changes it both ways, prints what
//                                                   the object reads, and exits without synchronize()
import ObservableDefaults

/// The same keys as the tests' `Settings`.
@ObservableDefaults
final class ProbeSettings {
  var name: String = "Fatbobman"
  var age: Int = 20
}

/// The same keys as the tests' `SyncedSettings`, on a container the tests choose.
@ObservableCloud(autoInit: false)
final class ProbeCloudSettings {
  var name: String = "Fatbobman"
  var age: Int = 20

  init(containerRoot: URL) {
    _$defaults.store = NSUbiquitousKeyValueStore(
      backend: EmbeddedCloudBackend(root: containerRoot, container: "tests", account: "tester"))
    _cloudObserver = CloudObservation(host: self, prefix: _prefix)
  }
}

/// A production-mode class with the generated initializer.
@ObservableCloud
final class ProbeModeSettings {
  var value = 1
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("defaults-probe: \(message)\n".utf8))
  exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["cloud-mode"] {
  let settings = ProbeModeSettings()
  settings.value = 5
  print("development \(settings._developmentMode_) fresh \(ProbeModeSettings().value)")
  exit(0)
}
if arguments.count == 3, arguments[0] == "default-cloud-set" {
  let store = NSUbiquitousKeyValueStore.default
  store.set(arguments[2], forKey: arguments[1])
  store.synchronize()
  print(store.syncStatus.backend, store.syncStatus.summary)
  exit(0)
}
if arguments.count == 2, arguments[0] == "default-cloud-get" {
  let store = NSUbiquitousKeyValueStore.default
  store.synchronize()
  print(store.syncStatus.backend, store.syncStatus.summary)
  print(store.string(forKey: arguments[1]) ?? "")
  exit(0)
}
if arguments.count == 2, arguments[0] == "default-cloud-peek" {
  let started = ContinuousClock.now
  let value = NSUbiquitousKeyValueStore.default.string(forKey: arguments[1]) ?? ""
  let elapsed = ContinuousClock.now - started
  print(value)
  print(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
  exit(0)
}
if arguments.count == 2, arguments[0] == "foundation" {
  // The Apple-platform example of a store written behind the object's back.
  let defaults = UserDefaults(suiteName: arguments[1])!
  let settings = ProbeSettings(userDefaults: defaults)
  defaults.set("External", forKey: "name")
  print(settings.name)
  settings.name = "Mine"
  print(settings.name)
  defaults.removeObject(forKey: "name")
  print(settings.name)
  settings.age = 42
  print(settings.age)
  exit(0)
}
guard arguments.count >= 3 else {
  fail(
    "usage: set <file> <property> <value> | remove <file> <key> | cloud-set <folder> name <text>")
}
let store = PropertyListDefaults(fileURL: URL(fileURLWithPath: arguments[1]))

switch (arguments[0], arguments[2]) {
case ("cloud-set", "name") where arguments.count == 4:
  ProbeCloudSettings(containerRoot: URL(fileURLWithPath: arguments[1])).name = arguments[3]
case ("set", "name") where arguments.count == 4:
  ProbeSettings(userDefaults: store).name = arguments[3]
case ("set", "age") where arguments.count == 4:
  guard let age = Int(arguments[3]) else { fail("age must be an integer") }
  ProbeSettings(userDefaults: store).age = age
case ("remove", let key):
  store.removeObject(forKey: key)
default:
  fail("unknown command \(arguments.joined(separator: " "))")
}

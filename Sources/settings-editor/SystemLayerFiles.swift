import Foundation
import ObservableDefaultsCore

/// The system-wide defaults and mandatory values of a suite as the verbs see them: read from
/// the folders of `$XDG_CONFIG_DIRS` once, each file not used named on standard error.
struct SystemLayerFiles {
  let suite: String
  let system: SystemDefaults

  /// Reads the system files of `suite` (none for a name that names no suite file).
  init(suite: String) {
    self.suite = suite
    system =
      PreferencesDirectory.isSuiteName(suite)
      ? SystemDefaults(suite: suite, folders: PreferencesDirectory.systemFolders)
      : SystemDefaults()
    for problem in system.problems { printError(problem) }
  }

  /// Whether a system file holds a value of the suite.
  var hasValues: Bool { !system.defaults.isEmpty || !system.mandatory.isEmpty }

  /// The value of `key` and its layer, with `userValues` as the user's file.
  func entry(forKey key: PropertyListKey, userValues: [PropertyListKey: Any])
    -> (value: Any, layer: DefaultsLayer)?
  {
    system.entry(
      forKey: key, userFile: PreferencesDirectory.fileURL(forSuite: suite),
      userValue: { userValues[$0] })
  }

  /// Refuses a change of a mandatory key.
  ///
  /// - Throws: ``VerbError`` `.mandatory` naming the first mandatory key of `keys` and the file
  ///   that sets it.
  func refuse(_ keys: some Collection<PropertyListKey>) throws(VerbError) {
    let locked = keys.filter { system.mandatory[$0] != nil }.sorted { $0.string < $1.string }
    guard let key = locked.first, let entry = system.mandatory[key] else { return }
    throw .mandatory(
      "the key \(key.string) of suite \(suite) is mandatory: \(entry.file.path) sets it; "
        + "nothing was written")
  }
}

import Foundation
import ObservableDefaults
import SettingsEditor

/// Writes one line to standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("settings-editor: \(message)\n".utf8))
}

let invocation: Invocation
do {
  invocation = try Invocation(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  printError("\(error)\nRun settings-editor --help for usage.")
  exit(64)
}

do {
  switch invocation {
  case .help:
    print(usage)
  case .editor(let options):
    let demo = [
      AnySettings(Settings()), AnySettings(AppearanceSettings()), AnySettings(EveryTypeSettings()),
      AnySettings(SyncedPreferences()),
    ]
    let editor = try SettingsEditor(objects: demo, suites: SettingsEditor.availableSuites)
    try options.run(editor)
  case .editFiles(let paths, let options):
    try options.run(SettingsEditor(files: paths.map { URL(fileURLWithPath: $0) }))
  case .read(let domain, let key):
    print(try DefaultsVerbs.read(domain, key: key))
  case .write(let suite, let key, let value):
    try DefaultsVerbs.write(suite: suite, key: key, value: value)
  case .delete(let suite, let key):
    try DefaultsVerbs.delete(suite: suite, key: key)
  }
} catch {
  printError("\(error)")
  exit(1)
}

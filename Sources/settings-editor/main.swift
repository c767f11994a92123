import Foundation
import ObservableDefaults
import SettingsEditor

/// Writes one line to standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("settings-editor: \(message)\n".utf8))
}

/// Runs the editor, refusing when there is no terminal to draw on.
@MainActor
func runEditor(_ editor: () throws -> SettingsEditor) throws {
  let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
  guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, !term.isEmpty, term != "dumb" else {
    throw DefaultsVerbs.Failure(description: "the editor needs a terminal; use read, write or delete in scripts (see --help)")
  }
  try editor().run()
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
  case .editor:
    try runEditor {
      let demo = [AnySettings(Settings()), AnySettings(AppearanceSettings())]
      return try SettingsEditor(objects: demo, suites: SettingsEditor.availableSuites)
    }
  case .editFiles(let paths):
    try runEditor { try SettingsEditor(files: paths.map { URL(fileURLWithPath: $0) }) }
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

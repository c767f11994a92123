import Foundation
import ObservableDefaults
import ObservableDefaultsEtcd
import ObservableDefaultsNATS
import SettingsEditor

/// Writes a message to standard error on one line, unprintable characters escaped, line breaks
/// too (it may quote keys, values and names from files or the command line: a key holding a
/// line break printed a line of its own), then `usage`, the program's own lines, as they are.
/// A standard error that cannot be written (closed, or a terminal that hung up) loses the
/// message: `FileHandle.write(_:)` would trap.
func printError(_ message: String, usage: String? = nil) {
  let text = "settings-editor: \(TerminalText.escaped(message))\n" + (usage.map { $0 + "\n" } ?? "")
  try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
}

/// Writes `data` to standard output, or to the file at `path`: a new file or a regular file,
/// replaced atomically; a device node, named pipe, symbolic link or folder there is refused.
func emit(_ data: Data, to path: String?) throws {
  guard let path else { return FileHandle.standardOutput.write(data) }
  try AtomicFileWriter.writeRegularFile(data, to: URL(fileURLWithPath: path))
}

/// Runs the verb or the editor the command line asks for (on the main thread: the editor draws
/// from there).
@MainActor
func perform(_ invocation: Invocation) throws {
  switch invocation {
  case .help(let verb):
    print(verb?.help ?? usage)
  case .version:
    print("settings-editor \(packageVersion)")
  case .editor(let options):
    SettingsFileWatching.startNow()
    let demo = [
      AnySettings(Settings()), AnySettings(AppearanceSettings()), AnySettings(EveryTypeSettings()),
      AnySettings(CloudSettings()),
    ]
    let editor = try SettingsEditor(
      objects: demo, suites: SettingsEditor.availableSuites, includesPublishedSchemas: true)
    editor.listsNewSuites = true
    try options.run(editor)
  case .editFiles(let paths, let options):
    SettingsFileWatching.startNow()
    try options.run(SettingsEditor(files: paths.map { URL(fileURLWithPath: $0) }))
  case .read(let domain, let key, let raw):
    print(try DefaultsVerbs.read(domain, key: key, raw: raw))
  case .readType(let domain, let key):
    print(try DefaultsVerbs.readType(domain, key: key))
  case .readSource(let suite, let key):
    print(try DefaultsVerbs.source(of: key, in: suite))
  case .write(let domain, let key, let words):
    try DefaultsVerbs.write(domain, key: key, words: words)
  case .rename(let domain, let key, let newKey):
    try DefaultsVerbs.rename(domain, key: key, to: newKey)
  case .delete(let domain, let key?):
    try DefaultsVerbs.delete(domain, key: key)
  case .delete(let domain, nil):
    try DefaultsVerbs.deleteAll(domain)
  case .domains:
    let names = DefaultsVerbs.domains()
    if !names.isEmpty { print(names) }
  case .find(let word):
    let found = try DefaultsVerbs.find(word)
    if !found.isEmpty { print(found) }
  case .export(let domain, let json, let output):
    try emit(TransferVerbs.export(domain, json: json), to: output)
  case .import(let suite, let input, let json):
    try TransferVerbs.import(TransferVerbs.input(input), file: input, into: suite, json: json)
  case .watch(let suite, let key):
    try WatchVerb.run(suite: suite, key: key)
  case .log(let suite, let key):
    let lines = try LogVerb.run(suite: suite, key: key)
    if !lines.isEmpty { print(lines) }
  case .migrate(let suite, let dryRun):
    print(try MigrateVerb.run(suite: suite, dryRun: dryRun))
  case .listSchemas:
    let list = SchemaVerbs.listSchemas()
    if !list.isEmpty { print(list) }
  case .listKeys(let store, let stored):
    let keys = try SchemaVerbs.listKeys(store, includingStored: stored)
    if !keys.isEmpty { print(keys) }
  case .listKeySources(let suite):
    print(try SchemaVerbs.listKeySources(suite))
  case .describe(let store, let key):
    print(try SchemaVerbs.describe(store, key: key))
  case .range(let store, let key):
    print(try SchemaVerbs.range(store, key: key))
  case .reset(let suite, let key):
    let keys = try SchemaVerbs.keysToReset(in: suite, key: key)
    if !keys.isEmpty { try DefaultsVerbs.remove(keys, from: .suite(suite)) }
  case .removeSchemas(let program):
    for path in try SchemaVerbs.remove(program: program) { print(TerminalText.escaped(path)) }
  case .cloudStatus(let container):
    let (report, status) = CloudStatusVerb.run(container: container)
    print(report)
    if status != 0 { exit(status) }
  }
}

// The demo settings are the editor's own: no schema of them is published for other tools.
SettingsSchemaPublisher.isEnabled = false
// The editor opens programs' cloud containers with whichever engine the configuration names,
// whatever traits the package was built with.
CloudEngines.register(EtcdCloudBackend.engine)
CloudEngines.register(NATSCloudBackend.engine)
do {
  try perform(try CommandLineArguments.current.invocation())
} catch let error as VerbError {
  printError(error.description, usage: error.usage)
  exit(error.kind.exitStatus)
} catch let error as PropertyListError {
  printError("\(error)")
  exit(VerbError.Kind(of: error).exitStatus)
} catch {
  printError("\(error)")
  exit(VerbError.Kind.failure.exitStatus)
}

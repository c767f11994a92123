import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import SettingsEditor

/// What the command line asks for.
enum Invocation: Equatable {
  /// The full-screen editor on the demo objects and every suite.
  case editor(EditorOptions)
  /// The full-screen editor on these property-list files.
  case editFiles([String], EditorOptions)
  /// The overview, or the help of one verb.
  case help(Verb?)
  /// `--version`: the program's version.
  case version
  /// `read <domain> [key]`; `raw` prints data holding JSON as its bytes.
  case read(domain: Domain, key: String?, raw: Bool)
  case readType(domain: Domain, key: String)
  /// `read <suite> <key> --source`: where the value comes from.
  case readSource(suite: String, key: String)
  /// `write <domain> <key> [-type] <value>…`; the value words are checked when the verb runs.
  case write(domain: Domain, key: String, value: [String])
  case rename(domain: Domain, key: String, newKey: String)
  /// `delete <domain> [key]`: one key, or (nil) every key of a suite.
  case delete(domain: Domain, key: String?)
  case domains
  case find(word: String)
  case export(domain: Domain, json: Bool, output: String?)
  case `import`(suite: String, input: String, json: Bool)
  case watch(suite: String, key: String?)
  /// `log <suite> [key]`: the history of the suite's changes.
  case log(suite: String, key: String?)
  case migrate(suite: String, dryRun: Bool)
  case cloudStatus(container: String?)
  case listSchemas
  case listKeys(store: SettingsSchema.Store, stored: Bool)
  /// `list-keys <suite> --source`: each key with where its value comes from.
  case listKeySources(suite: String)
  case describe(store: SettingsSchema.Store, key: String)
  case range(store: SettingsSchema.Store, key: String)
  /// `reset <suite> <key>`, or (key nil) `reset-recursively <suite>`.
  case reset(suite: String, key: String?)
  /// `schema remove <program>`, or (nil) `schema remove --gone`.
  case removeSchemas(program: String?)

  /// A suite name or a property-list file named on the command line.
  enum Domain: Equatable {
    case suite(String)
    case file(String)

    /// A path when the argument has a `/` or names an existing `.plist` file, else a suite.
    init(_ argument: String) {
      let isFile =
        argument.contains("/")
        || (argument.hasSuffix(".plist") && FileManager.default.fileExists(atPath: argument))
      self = isFile ? .file(argument) : .suite(argument)
    }
  }

  /// Reads the arguments after the program name.
  ///
  /// - Throws: ``VerbError`` of kind `.usage` when they fit no form.
  init(arguments allArguments: [String]) throws(VerbError) {
    let (options, arguments) = try EditorOptions.extract(from: allArguments)
    guard let word = arguments.first else {
      self = .editor(options)
      return
    }
    if options != EditorOptions(), let verb = Verb(rawValue: word) {
      throw .usage(verb, "--readonly and --color are options of the editor, not of \(word)")
    }
    let operands = Array(arguments.dropFirst())
    if ["-h", "--help"].contains(word) {
      self = .help(nil)
    } else if word == "--version" {
      self = .version
    } else if let verb = Verb(rawValue: word) {
      // Values never start with `-` unless they are numbers, so this cannot hide a value.
      let asksForHelp = operands.contains { $0 == "--help" || $0 == "-h" }
      self = try asksForHelp ? .help(verb) : Self.parse(verb, operands)
    } else if word.hasPrefix("-") {
      throw .usage(nil, "unknown option \(word)")
    } else {
      guard arguments.allSatisfy({ Domain($0) != .suite($0) }) else {
        if let verb = Verb.nearest(to: word) {
          throw .usage(nil, "unknown command \(word); did you mean \(verb.rawValue)?")
        }
        throw .usage(
          nil,
          "unknown command \(word) (property-list files must exist and end in .plist or contain /)")
      }
      self = .editFiles(arguments, options)
    }
  }

  private static func parse(_ verb: Verb, _ operands: [String]) throws(VerbError) -> Invocation {
    var flags = Set(operands.filter { $0.hasPrefix("--") })
    let words = operands.filter { !$0.hasPrefix("--") }
    let json = verb == .export || verb == .import ? flags.remove("--json") != nil : false
    let raw = verb == .read ? flags.remove("--raw") != nil : false
    let source = [.read, .listKeys].contains(verb) ? flags.remove("--source") != nil : false
    let dryRun = verb == .migrate ? flags.remove("--dry-run") != nil : false
    let gone = verb == .schema ? flags.remove("--gone") != nil : false
    let all = verb == .listKeys ? flags.remove("--all") != nil : false
    if verb != .write, let unknown = flags.sorted().first {
      throw .usage(verb, "unknown option \(unknown)")
    }
    func count(_ range: ClosedRange<Int>) throws(VerbError) {
      guard range.contains(operands.count) else { throw .usage(verb, "wrong number of arguments") }
    }
    func suite(_ argument: String) throws(VerbError) -> String {
      guard case .suite(let name) = Domain(argument) else {
        throw .usage(verb, "\(verb.rawValue) works on suites, not on the file \(argument)")
      }
      return name
    }
    switch verb {
    case .help:
      try count(0...1)
      guard let name = operands.first else { return .help(nil) }
      guard let topic = Verb(rawValue: name) else {
        let guess = Verb.nearest(to: name).map { "; did you mean \($0.rawValue)?" } ?? ""
        throw .usage(verb, "unknown verb \(name)\(guess)")
      }
      return .help(topic)
    case .read:
      guard (1...2).contains(words.count) else { throw .usage(verb, "wrong number of arguments") }
      if source {
        guard words.count == 2, !raw else {
          throw .usage(verb, "--source takes a suite and a key, and no --raw")
        }
        return .readSource(suite: try suite(words[0]), key: words[1])
      }
      return .read(domain: Domain(words[0]), key: words.count == 2 ? words[1] : nil, raw: raw)
    case .readType:
      try count(2...2)
      return .readType(domain: Domain(operands[0]), key: operands[1])
    case .write:
      guard operands.count >= 3 else { throw .usage(verb, "wrong number of arguments") }
      return .write(domain: Domain(operands[0]), key: operands[1], value: Array(operands[2...]))
    case .rename:
      try count(3...3)
      return .rename(domain: Domain(operands[0]), key: operands[1], newKey: operands[2])
    case .delete:
      try count(1...2)
      return .delete(domain: Domain(operands[0]), key: operands.count == 2 ? operands[1] : nil)
    case .domains:
      try count(0...0)
      return .domains
    case .find:
      try count(1...1)
      return .find(word: operands[0])
    case .export:
      guard (1...2).contains(words.count) else { throw .usage(verb, "wrong number of arguments") }
      let output = words.count == 2 && words[1] != "-" ? words[1] : nil
      return .export(domain: Domain(words[0]), json: json, output: output)
    case .import:
      guard words.count == 2 else { throw .usage(verb, "wrong number of arguments") }
      return .import(suite: try suite(words[0]), input: words[1], json: json)
    case .watch:
      try count(1...2)
      return .watch(suite: try suite(operands[0]), key: operands.count == 2 ? operands[1] : nil)
    case .log:
      try count(1...2)
      return .log(suite: try suite(operands[0]), key: operands.count == 2 ? operands[1] : nil)
    case .migrate:
      guard words.count == 1 else { throw .usage(verb, "wrong number of arguments") }
      return .migrate(suite: try suite(words[0]), dryRun: dryRun)
    case .listSchemas:
      try count(0...0)
      return .listSchemas
    case .listKeys:
      guard words.count == 1 else { throw .usage(verb, "wrong number of arguments") }
      let store = SchemaVerbs.store(try suite(words[0]))
      guard source else { return .listKeys(store: store, stored: all) }
      guard case .suite(let name) = store else {
        throw .usage(
          verb,
          "--source is for suites: a cloud container has no system-wide or mandatory values")
      }
      return .listKeySources(suite: name)
    case .describe, .range:
      try count(2...2)
      let store = SchemaVerbs.store(try suite(operands[0]))
      return verb == .describe
        ? .describe(store: store, key: operands[1]) : .range(store: store, key: operands[1])
    case .reset:
      try count(2...2)
      return .reset(suite: try suite(operands[0]), key: operands[1])
    case .resetRecursively:
      try count(1...1)
      return .reset(suite: try suite(operands[0]), key: nil)
    case .schema:
      guard words.first == "remove", words.count == (gone ? 1 : 2) else {
        throw .usage(verb, "the schema verb takes: remove <program> | remove --gone")
      }
      return .removeSchemas(program: gone ? nil : words[1])
    case .cloud:
      guard (1...2).contains(operands.count), operands[0] == "status" else {
        throw .usage(verb, "the cloud verb takes: status [container]")
      }
      return .cloudStatus(container: operands.count == 2 ? operands[1] : nil)
    }
  }
}

/// The editor's options: `--readonly` and `--color=auto|always|never`.
struct EditorOptions: Equatable {
  var isReadOnly = false
  var color = ColorChoice.auto

  /// Takes the options out of `arguments`, wherever they are; returns them and the rest.
  ///
  /// - Throws: ``VerbError`` of kind `.usage` for a `--color` value other than auto, always or
  ///   never.
  static func extract(from arguments: [String]) throws(VerbError) -> (Self, [String]) {
    var options = Self()
    var rest: [String] = []
    for argument in arguments {
      if argument == "--readonly" {
        options.isReadOnly = true
      } else if argument.hasPrefix("--color") {
        let value = argument == "--color" ? "always" : String(argument.dropFirst("--color=".count))
        guard argument == "--color" || argument.hasPrefix("--color="),
          let color = ColorChoice(rawValue: value)
        else { throw .usage(nil, "--color takes auto, always or never (--color=never)") }
        options.color = color
      } else {
        rest.append(argument)
      }
    }
    return (options, rest)
  }

  /// Applies the options to `editor` and runs it.
  @MainActor
  func run(_ editor: SettingsEditor) throws {
    editor.isReadOnly = isReadOnly
    editor.color = color
    try editor.run()
  }
}

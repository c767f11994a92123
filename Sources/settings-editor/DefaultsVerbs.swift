import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import ObservableDefaultsSchema
import SettingsEditor

/// The `read`, `write`, `delete` and `domains` verbs, in the form of macOS `defaults`.
enum DefaultsVerbs {
  /// Prints the whole domain, or the value of `key`; `raw` prints data holding JSON as bytes.
  ///
  /// A suite's values are those its programs read from files: mandatory values over the user's
  /// file over system-wide defaults (``SystemDefaults``). A key of a suite that none of them
  /// sets (or a suite with no file yet) whose published schema gives it a default prints that
  /// default, as `gsettings get` does, and says so on standard error.
  static func read(_ domain: Invocation.Domain, key: String?, raw: Bool = false) throws -> String {
    guard let key else {
      return PropertyListText.render(try readValues(of: domain), showsJSON: !raw)
    }
    // The published schemas are read only for a key no file holds: listing and parsing them was
    // a fifth of a one-key `read` (callgrind).
    let values: [PropertyListKey: Any]
    do {
      values = try readValues(of: domain, key: key)
    } catch {
      guard let fallback = try schemaDefault(of: key, in: domain) else { throw error }
      return render(fallback, raw: raw)
    }
    if values[key] == nil, let fallback = try schemaDefault(of: key, in: domain) {
      return render(fallback, raw: raw)
    }
    return PropertyListText.renderValue(try value(of: key, in: values, domain), showsJSON: !raw)
  }

  /// A schema's default for `read`: its note on standard error, its value as text.
  private static func render(_ fallback: (value: Any, note: String), raw: Bool) -> String {
    printError(fallback.note)
    return PropertyListText.renderValue(fallback.value, showsJSON: !raw)
  }

  /// The default a published schema gives `key` of a suite when no file of the suite (mandatory,
  /// the user's, system-wide) has a value for it, with the note that says so; nil when a value is stored, the domain is
  /// a file, or no schema gives the key a default.
  private static func schemaDefault(of key: String, in domain: Invocation.Domain) throws
    -> (value: Any, note: String)?
  {
    guard case .suite(let suite) = domain,
      let match = PublishedSchemas().key(key, of: .suite(suite)),
      let defaultValue = match.key.defaultValue?.value
    else { return nil }
    if try layeredValue(of: key, in: suite) != nil { return nil }
    return (
      defaultValue,
      "note: \(key) is not set in \(suite): this is its default (schema "
        + "\(match.schema.qualifiedName) of \(match.schema.program.name))"
    )
  }

  /// `Type is <type>` for the value of `key`, in the words of macOS `defaults read-type`.
  static func readType(_ domain: Invocation.Domain, key: String) throws -> String {
    "Type is " + typeName(of: try value(of: key, in: readValues(of: domain, key: key), domain))
  }

  /// Where the value of `key` in `suite` comes from, `read --source`: `mandatory`, `user` or
  /// `system` and the file, or `default` when no file has it (the program's registered default
  /// or its declaration's default applies; another program's command line and registered
  /// defaults are not known here).
  static func source(of key: String, in suite: String) throws -> String {
    try layeredValue(of: key, in: suite)?.source ?? "default"
  }

  /// The value of `key` a program reads from the files of `suite` (mandatory → the user's file
  /// → system-wide defaults) and where it comes from (`mandatory: <file>`), nil when no file
  /// has it.
  static func layeredValue(of key: String, in suite: String) throws -> (
    value: Any, source: String
  )? {
    let user = try userValues(of: .suite(suite), key: key)
    guard
      let (value, layer) = SystemLayerFiles(suite: suite).entry(
        forKey: PropertyListKey(key), userValues: user)
    else { return nil }
    return (value, layer.file.map { "\(layer): \(TerminalText.escaped($0.path))" } ?? "\(layer)")
  }

  /// The values `read` shows: a suite's layered values (``SystemLayerFiles``), a file's own;
  /// with `key`, the file's value of that key alone (``values(of:key:)``).
  ///
  /// - Throws: The errors of ``values(of:key:)``; for a suite only when no system file has
  ///   values.
  private static func readValues(of domain: Invocation.Domain, key: String? = nil) throws
    -> [PropertyListKey: Any]
  {
    guard case .suite(let suite) = domain else { return try values(of: domain, key: key) }
    let layers = SystemLayerFiles(suite: suite)
    return layers.system.merged(
      over: try userValues(of: domain, key: key, orNoneWhen: layers.hasValues))
  }

  /// The stored values of a suite's file (with `key`, of that key alone), or none when it has
  /// no file and `orNoneWhen` holds.
  private static func userValues(
    of domain: Invocation.Domain, key: String? = nil, orNoneWhen noFileIsFine: Bool = true
  ) throws -> [PropertyListKey: Any] {
    if noFileIsFine, !FileManager.default.fileExists(atPath: try fileURL(of: domain).path) {
      return [:]
    }
    return try values(of: domain, key: key)
  }

  /// The type of a property-list value as `defaults` names it: string, integer, float, boolean,
  /// date, data, array, dictionary.
  static func typeName(of value: Any) -> String {
    switch value {
    case is [Any]: "array"
    case is [String: Any], is [AnyHashable: Any]: "dictionary"
    default:
      switch PropertyListScalarType(of: value) {
      case .string: "string"
      case .integer: "integer"
      case .real: "float"
      case .bool: "boolean"
      case .date: "date"
      case .data: "data"
      case nil: "\(type(of: value))"
      }
    }
  }

  /// Stores the value `words` stand for under `key` and waits until it is in the file;
  /// `-array-add` and `-dict-add` add to the array or dictionary stored there.
  /// A suite's value is checked against the published schema that describes the key; a key
  /// that no schema of a suite with schemas lists is written with a warning on standard error.
  static func write(_ domain: Invocation.Domain, key: String, words: [String]) throws {
    // The schema folders are listed once: for the value's stored form and for its check.
    let schemas: PublishedSchemas? =
      if case .suite = domain { PublishedSchemas() } else { nil }
    let schemaKey: SettingsSchema.Key? =
      if case .suite(let suite) = domain { schemas?.key(key, of: .suite(suite))?.key } else { nil }
    var value = try TypedValueWords.value(of: words, storedForm: schemaKey?.storedForm)
    if let addition = TypedValueWords.Addition(words.first) {
      // An unset key starts from its schema's default, as the program reads it.
      let stored = (try? values(of: domain, key: key))?[key] ?? schemaKey?.defaultValue?.value
      value = try addition.merge(value, into: stored, key: key)
    }
    var warning: String?
    if case .suite(let suite) = domain, let schemas {
      warning = try SchemaVerbs.check(value, forKey: key, in: suite, schemas: schemas)
    }
    try store(value, forKey: key, in: domain)
    if let warning { printError(warning) }
  }

  /// Removes `keys` in one write; keys not stored are no change.
  static func remove(_ keys: [String], from domain: Invocation.Domain) throws {
    try store(
      Dictionary(keys.map { (PropertyListKey($0), nil as Any?) }, uniquingKeysWith: { $1 }),
      in: domain)
  }

  /// Moves the value of `key` to `newKey` in one write.
  static func rename(_ domain: Invocation.Domain, key: String, to newKey: String) throws {
    // Two one-key reads, not the whole parse: at 100,000 keys a rename took four times a write.
    let value = try value(of: key, in: values(of: domain, key: key), domain)
    guard try values(of: domain, key: newKey)[newKey] == nil else {
      throw VerbError.failure("the key \(newKey) already exists in \(name(of: domain))")
    }
    // Exact keys: a new name that differs from the old only in Unicode normalization is
    // another key, as in the file.
    try store([PropertyListKey(newKey): value, PropertyListKey(key): nil], in: domain)
  }

  /// Removes every key of a suite in one write (watchers and the history see each key go),
  /// then deletes its file. A key an administrator made mandatory refuses the whole delete, as
  /// it refuses `delete` of that key: nothing is removed (it said the value stayed, exited 0
  /// and deleted the file with the user's value of that key).
  static func deleteAll(_ domain: Invocation.Domain) throws {
    guard case .suite(let suite) = domain else {
      throw VerbError.usage(.delete, "delete without a key works on suites, not on files")
    }
    let values = try values(of: domain)
    try store(values.mapValues { _ in nil }, in: domain)
    try FileManager.default.removeItem(at: PreferencesDirectory.fileURL(forSuite: suite))
  }

  /// Every suite's keys whose name or value contains `word` (ignoring case), in the form of
  /// macOS `defaults find`.
  static func find(_ word: String) throws -> String {
    PreferencesDirectory.suiteNames().compactMap { suite -> String? in
      guard let values = try? values(of: .suite(suite)) else { return nil }
      let found = values.filter { key, value in
        key.string.localizedCaseInsensitiveContains(word) || contains(word, in: value)
      }
      guard !found.isEmpty else { return nil }
      return "Found \(found.count) key\(found.count == 1 ? "" : "s") in domain "
        + "'\(TerminalText.escaped(suite))': "
        + PropertyListText.render(found)
    }.joined(separator: "\n")
  }

  /// Whether `value` (or a key or value inside it) contains `word`, ignoring case.
  private static func contains(_ word: String, in value: Any) -> Bool {
    switch value {
    case let items as [Any]: items.contains { contains(word, in: $0) }
    case let entries as [String: Any]:
      entries.contains {
        $0.key.localizedCaseInsensitiveContains(word) || contains(word, in: $0.value)
      }
    default: (PropertyListScalarType.text(of: value) ?? "").localizedCaseInsensitiveContains(word)
    }
  }

  /// The value of `key` in `values`.
  ///
  /// - Throws: ``VerbError`` `.failure` naming the key and the domain when it is not there.
  private static func value(
    of key: String, in values: [PropertyListKey: Any], _ domain: Invocation.Domain
  ) throws(VerbError) -> Any {
    guard let value = values[key] else {
      throw .failure("the key \(key) does not exist in \(name(of: domain))")
    }
    return value
  }

  /// Removes `key` and waits until the file no longer has it.
  static func delete(_ domain: Invocation.Domain, key: String) throws {
    do {
      _ = try value(of: key, in: values(of: domain, key: key), domain)
    } catch {
      // A mandatory key the user's file does not hold: the lock is the reason, not its absence.
      if case .suite(let suite) = domain {
        try SystemLayerFiles(suite: suite).refuse([PropertyListKey(key)])
      }
      throw error
    }
    try store(nil, forKey: key, in: domain)
  }

  /// The suite names, one per line (unprintable characters escaped).
  static func domains() -> String {
    PreferencesDirectory.suiteNames().map(TerminalText.escaped).joined(separator: "\n")
  }

  /// The stored values of a suite or file (registered defaults excluded), by exact key: keys
  /// that differ only in Unicode normalization are separate entries, as in the file. With
  /// `key`, only that key's value (none when it is not stored): the file is checked whole as
  /// before, but its other values are not decoded (``PropertyListFile/read(key:)``). A writer
  /// holding the file's lock is waited for (at most 5 s), and a file that does not parse is read
  /// again after pauses (half a second in all) before it is called invalid.
  ///
  /// - Throws: ``VerbError``: `.failure` when it does not exist, `.invalid` when it does not
  ///   parse; ``PropertyListError`` when it cannot be read.
  static func values(of domain: Invocation.Domain, key: String? = nil) throws
    -> [PropertyListKey: Any]
  {
    // The file itself: a one-shot read needs no suite storage and no watch of the folder.
    let url = try fileURL(of: domain)
    let file = PropertyListFile(url: url)
    let document: PropertyListDocument?
    do {
      // After a writer that holds the file's lock, as a suite's first read.
      document = try file.readingAfterWriters {
        try key.map { try file.read(key: PropertyListKey($0)) } ?? file.read()
      }
    } catch let error as PropertyListError where error.kind == .malformed {
      // Reading changes nothing: no "left unchanged" here.
      throw VerbError.invalid("\(url.path) is not a valid property list (\(error.reason))")
    }
    guard let document else {
      switch domain {
      case .file(let path): throw VerbError.failure("no such file: \(path)")
      case .suite(let suite):
        throw VerbError.failure(
          "the suite \(suite) does not exist in \(PreferencesDirectory.url.path)")
      }
    }
    return document.values
  }

  /// The file of a suite (in ``PreferencesDirectory``) or the file named by path.
  ///
  /// - Throws: ``VerbError`` `.usage` for an empty suite name, one with a `/`, or `.` and `..`
  ///   (their files, `..plist` and `...plist`, are hidden, and `domains` lists no such suite).
  static func fileURL(of domain: Invocation.Domain) throws(VerbError) -> URL {
    switch domain {
    case .suite(let suite):
      guard !suite.isEmpty, !suite.contains("/"), suite != ".", suite != ".." else {
        throw .usage(nil, "\"\(suite)\" is not a suite name")
      }
      return PreferencesDirectory.fileURL(forSuite: suite)
    case .file(let path):
      return URL(fileURLWithPath: path)
    }
  }

  /// The store of a suite; with `readingSystemLayers`, with its system-wide defaults and
  /// mandatory values too (``PreferencesDirectory/systemFolders``), as its programs read it.
  static func suiteDefaults(_ suite: String, readingSystemLayers: Bool = false)
    throws(VerbError) -> PropertyListDefaults
  {
    let url = try fileURL(of: .suite(suite))
    guard readingSystemLayers, PreferencesDirectory.isSuiteName(suite) else {
      return PropertyListDefaults(fileURL: url)
    }
    return PropertyListDefaults(
      fileURL: url, suite: suite, systemFolders: PreferencesDirectory.systemFolders)
  }

  /// Sets (nil: removes) one key of a suite or a file in the file itself.
  private static func store(_ value: Any?, forKey key: String, in domain: Invocation.Domain)
    throws
  {
    try store([PropertyListKey(key): value], in: domain)
  }

  /// Sets (nil: removes) keys of a suite or a file in one write of the file itself (its failure
  /// is thrown once, for the caller to report; no background write reports it again).
  static func store(_ changes: [PropertyListKey: Any?], in domain: Invocation.Domain)
    throws
  {
    if case .suite(let suite) = domain { try SystemLayerFiles(suite: suite).refuse(changes.keys) }
    try PropertyListFile(url: fileURL(of: domain))
      .write(changes.mapValues { $0.map(PropertyListChange.set) ?? .remove })
  }

  private static func name(of domain: Invocation.Domain) -> String {
    switch domain {
    case .suite(let suite): "suite \(suite)"
    case .file(let path): path
    }
  }
}

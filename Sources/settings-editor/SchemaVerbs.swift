import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import SettingsEditor

/// The verbs of published settings schemas, in the form of `gsettings`: `list-schemas`,
/// `list-keys`, `describe`, `range`, `reset`, `reset-recursively` and `schema remove`; and the
/// check of `write` against a schema.
enum SchemaVerbs {
  /// A suite, or `cloud:<container>`, as the schema verbs name stores.
  static func store(_ argument: String) -> SettingsSchema.Store {
    argument.hasPrefix("cloud:")
      ? .cloud(container: String(argument.dropFirst(6))) : .suite(argument)
  }

  /// One line per usable schema — store, `Module.Class`, program, and `(program gone)` when its
  /// executable no longer exists — separated by tabs; each problem (a program folder not read,
  /// an unusable file) goes to standard error.
  static func listSchemas(_ schemas: PublishedSchemas = PublishedSchemas()) -> String {
    for problem in schemas.problems { printError(problem) }
    return schemas.entries.map { entry in
      ([entry.schema.store.argument, entry.schema.qualifiedName, entry.schema.program.name]
        + (entry.file.isProgramGone ? ["(program gone)"] : []))
        .map(TerminalText.escaped).joined(separator: "\t")
    }.joined(separator: "\n")
  }

  /// The stored keys the schemas of `store` list, one per line; with `includingStored` (a
  /// suite's `list-keys --all`, which the shell completions ask), then every other key the suite
  /// stores, sorted, and no error when no schema describes the suite.
  static func listKeys(_ store: SettingsSchema.Store, includingStored: Bool = false) throws
    -> String
  {
    guard includingStored, case .suite(let suite) = store else {
      return try keys(of: store).map { TerminalText.escaped($0.storedKey) }
        .joined(separator: "\n")
    }
    let described = PublishedSchemas().keys(of: store).map(\.storedKey)
    let others = try storedValues(of: suite).keys.map(\.string)
      .filter { !described.contains($0) }.sorted()
    return (described + others).map(TerminalText.escaped).joined(separator: "\n")
  }

  /// The stored keys the schemas of `suite` list, each with a tab and where its value comes
  /// from (``DefaultsVerbs/source(of:in:)``), one per line.
  static func listKeySources(_ suite: String) throws -> String {
    try keys(of: .suite(suite)).map { match in
      TerminalText.escaped(match.storedKey) + "\t"
        + (try DefaultsVerbs.source(of: match.storedKey, in: suite))
    }.joined(separator: "\n")
  }

  /// `name: value` lines on `key` of `store`: its schema, a `conflict:` line for each file whose
  /// other description of the key is hidden, type, stored form, default, choices or range,
  /// previous keys, summary, discussion, and the value stored now (suites only).
  static func describe(_ store: SettingsSchema.Store, key: String) throws -> String {
    let schemas = PublishedSchemas()
    let match = try self.key(key, of: store, in: schemas)
    let entry = match.key
    // Text from the file is escaped here; rendered values are escaped by their rendering.
    func text(_ text: String) -> String {
      text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { TerminalText.escaped(String($0)) }.joined(separator: "\n  ")
    }
    var lines = [
      "key: " + text(match.storedKey),
      "schema: " + text("\(match.schema.qualifiedName) of \(match.schema.program.name)"),
    ]
    for conflict in schemas.conflicts(of: match.storedKey, in: store) {
      lines.append(
        "conflict: "
          + text(
            "\(conflict.hidden) describes this key otherwise and is hidden "
              + "(\(conflict.winner) comes first)"))
    }
    lines += [
      "type: " + text(entry.typeName) + (entry.isOptional ? " (optional: unset is nil)" : ""),
      "stored as: " + entry.storedForm.rawValue,
      "default: " + (entry.defaultValue.map { render($0.value) } ?? "none"),
    ]
    if let choices = entry.choices {
      lines.append(
        "choices: "
          + choices.map { choice in
            let raw = render(choice.value.value)
            return raw == choice.name ? raw : text(choice.name) + " = " + raw
          }.joined(separator: ", "))
    }
    if let range = entry.range { lines.append("range: \(range.minimum) … \(range.maximum)") }
    if !entry.previousKeys.isEmpty {
      lines.append("previous keys: " + text(entry.previousKeys.joined(separator: ", ")))
    }
    if let summary = entry.summary { lines.append("summary: " + text(summary)) }
    if let discussion = entry.discussion { lines.append("discussion: " + text(discussion)) }
    if case .suite(let suite) = store {
      do {
        let layered = try DefaultsVerbs.layeredValue(of: match.storedKey, in: suite)
        let misfit = layered.flatMap { entry.misfit(of: $0.value, key: match.storedKey) }
        lines.append(
          "value: "
            + (layered.map { render($0.value) } ?? "not set (the default applies)")
            + (misfit.map { " (does not fit: it is " + text($0.found) + ")" } ?? ""))
        lines.append("source: " + (layered?.source ?? "default"))
      } catch {
        lines.append("value: unknown: " + text("\(error)"))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// What values `key` of `store` admits, in the form of `gsettings range`: `enum` and the raw
  /// values one per line, `range <type> <minimum> <maximum>`, or `type <type>`.
  static func range(_ store: SettingsSchema.Store, key: String) throws(VerbError) -> String {
    let entry = try self.key(key, of: store).key
    if let choices = entry.choices {
      return (["enum"] + choices.map { render($0.value.value) }).joined(separator: "\n")
    }
    if let range = entry.range {
      return "range \(TerminalText.escaped(entry.typeName)) \(range.minimum) \(range.maximum)"
    }
    return "type \(TerminalText.escaped(entry.typeName))"
  }

  /// The stored keys of `suite` to remove for `reset` (one key a schema lists) or for
  /// `reset-recursively` (`key` nil: every key the schemas list); those stored now.
  static func keysToReset(in suite: String, key: String?) throws -> [String] {
    let store = SettingsSchema.Store.suite(suite)
    let listed =
      try key.map { [try self.key($0, of: store).storedKey] } ?? keys(of: store).map(\.storedKey)
    let stored = try storedValues(of: suite)
    return listed.filter { stored[$0] != nil }
  }

  /// The values stored in `suite`: none when it has no file.
  ///
  /// - Throws: ``VerbError`` `.invalid` when the file is not a valid property list (nothing is
  ///   reset in a file that does not parse: it is left as it is).
  private static func storedValues(of suite: String) throws -> [PropertyListKey: Any] {
    let file = PreferencesDirectory.fileURL(forSuite: suite)
    guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
    return try DefaultsVerbs.values(of: .suite(suite))
  }

  /// Refuses `value` for `key` of `suite` when a schema lists the key and the value does not fit.
  ///
  /// - Returns: A warning when the suite has schemas but none lists the key (the value is
  ///   written all the same: a suite is also a raw domain), naming the key and the schemas.
  /// - Throws: ``VerbError`` `.invalid` naming the key, the schema's type and the value's.
  @discardableResult
  static func check(
    _ value: Any, forKey key: String, in suite: String,
    schemas: PublishedSchemas = PublishedSchemas()
  ) throws(VerbError) -> String? {
    guard let match = schemas.key(key, of: .suite(suite)) else {
      let described = schemas.schemas(of: .suite(suite))
      guard !described.isEmpty else { return nil }
      return "warning: no schema of \(suite) lists the key \(key) ("
        + described.map { "schema \($0.qualifiedName) of \($0.program.name)" }
        .joined(separator: ", ") + "); it is written unchecked"
    }
    guard let misfit = match.key.misfit(of: value, key: key) else {
      return uncheckedWarning(match.key, storedKey: key)
    }
    throw .invalid(
      "\(suite): \(misfit) (schema \(match.schema.qualifiedName) of \(match.schema.program.name))")
  }

  /// A warning when the schema of `key` cannot tell a right value from a wrong one of its
  /// type: a raw-value type whose values the schema does not list (an enumeration that is not
  /// `CaseIterable`), so only the raw value's type was checked.
  private static func uncheckedWarning(_ key: SettingsSchema.Key, storedKey: String) -> String? {
    let checkedAs: String
    switch key.storedForm {
    case .rawString: checkedAs = "a string"
    case .rawInteger: checkedAs = "an integer"
    case .rawReal: checkedAs = "a number"
    default: return nil
    }
    guard key.choices == nil else { return nil }
    return "warning: the schema lists no values of \(key.typeName) (not CaseIterable): "
      + "\(storedKey) was checked as \(checkedAs) only"
  }

  /// Removes the schema files of `program` from the user's folder, or (nil) every schema whose
  /// program is gone; returns the files removed. Installed schemas belong to their package and
  /// are left alone; a program folder that was not read (a symbolic link, permission denied) is
  /// skipped, and said so on standard error: nothing in it is known, so nothing is removed.
  static func remove(program: String?) throws -> [String] {
    let user = SettingsSchemaDirectory.user
    let listing = user.listing()
    let skipped = listing.refusedFolders.filter { program == nil || $0.programFolder == program }
    for folder in skipped {
      printError("skipped \(folder.path): not read (\(folder.reason)); nothing in it was removed")
    }
    let files = listing.files.filter { file in
      if let program { return file.programFolder == program }
      return file.isProgramGone
    }
    if let program, files.isEmpty, skipped.isEmpty {
      let installed = SettingsSchemaDirectory.installed.contains { folder in
        folder.files().contains { $0.programFolder == program }
      }
      throw VerbError.failure(
        installed
          ? "the schemas of \(program) are installed with a package; remove the package"
          : "no schema of \(program) in \(user.url.path)")
    }
    for file in files { try file.remove() }
    return files.map(\.url.path)
  }

  private static func keys(of store: SettingsSchema.Store) throws(VerbError)
    -> [PublishedSchemas.KeyMatch]
  {
    let keys = PublishedSchemas().keys(of: store)
    guard !keys.isEmpty else { throw .failure("no published schema describes \(store.argument)") }
    return keys
  }

  private static func key(
    _ key: String, of store: SettingsSchema.Store, in schemas: PublishedSchemas = PublishedSchemas()
  ) throws(VerbError) -> PublishedSchemas.KeyMatch {
    guard let match = schemas.key(key, of: store) else {
      if schemas.schemas(of: store).isEmpty {
        throw .failure("no published schema describes \(store.argument)")
      }
      throw .failure("no schema of \(store.argument) lists the key \(key)")
    }
    return match
  }

  private static func render(_ value: Any) -> String {
    PropertyListText.renderValue(value, showsJSON: true)
  }
}

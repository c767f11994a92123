import Foundation
import ObservableDefaults
import ObservableDefaultsSchema
import TestSupport
import Testing

@testable import SettingsEditor

/// Issue 22: two schema files that describe a key of one suite otherwise — the first in the
/// search order (the user's folder, then the installed ones in order) wins, the other's
/// description of that key is hidden, and the conflict is named.
@Suite struct SchemaConflictTests {
  let temporary: TemporaryFolder
  let user: SettingsSchemaDirectory
  let installed: SettingsSchemaDirectory

  init() throws {
    temporary = try TemporaryFolder(prefix: "schema-conflicts")
    user = SettingsSchemaDirectory(url: temporary.file("user"))
    installed = SettingsSchemaDirectory(url: temporary.file("installed"))
  }

  private func key(_ name: String, _ value: Any, summary: String? = nil) -> SettingsSchema.Key {
    let isText = value is String
    return SettingsSchema.Key(
      name: name, key: name, typeName: isText ? "String" : "Int",
      valueType: isText ? .string : .integer(bitWidth: 64, signed: true),
      storedForm: isText ? .string : .integer, defaultValue: PropertyListObject(value),
      summary: summary)
  }

  /// Publishes `keys` as `program`'s class `className` on the suite `shared` in `folder`;
  /// returns the file's path.
  @discardableResult
  private func publish(
    _ keys: [SettingsSchema.Key], program: String, className: String,
    in folder: SettingsSchemaDirectory
  ) throws -> String {
    let schema = SettingsSchema(
      program: .init(name: program), module: "App", className: className,
      store: .suite("shared"), prefix: "", schemaVersion: nil, keys: keys)
    try folder.write(schema)
    return folder.fileURL(for: schema).path
  }

  @Test func theFirstInSearchOrderWinsAndTheOtherIsNamed() throws {
    let winner = try publish(
      [key("size", 1), key("title", "x")], program: "zed", className: "Settings", in: user)
    // Installed: `size` otherwise (hidden); `title` alike but for its documentation (no
    // conflict); `extra` its own.
    let hidden = try publish(
      [key("size", "large"), key("title", "x", summary: "The title."), key("extra", 2)],
      program: "app", className: "Other", in: installed)
    // Also installed, after it, alike with the winner: no conflict.
    try publish([key("size", 1)], program: "app", className: "Same", in: installed)
    let schemas = PublishedSchemas(folders: [user, installed])

    #expect(
      schemas.conflicts.map(\.description) == [
        "conflict: \(hidden) describes size of shared otherwise than \(winner), which comes "
          + "first; its description is hidden"
      ])
    #expect(schemas.problems == schemas.conflicts.map(\.description))
    #expect(schemas.key("size", of: .suite("shared"))?.key.storedForm == .integer)
    #expect(
      schemas.shownSchemas.map { "\($0.className): \($0.keys.map(\.key))" } == [
        #"Settings: ["size", "title"]"#, #"Other: ["title", "extra"]"#, #"Same: ["size"]"#,
      ])
    #expect(schemas.conflicts(of: "size", in: .suite("shared")).map(\.hidden) == [hidden])
    #expect(schemas.conflicts(of: "title", in: .suite("shared")).isEmpty)
  }

  /// A schema whose every key is hidden is not shown at all.
  @Test func aSchemaWithEveryKeyHiddenIsLeftOut() throws {
    try publish([key("size", 1)], program: "app", className: "Settings", in: user)
    try publish([key("size", "large")], program: "app", className: "Old", in: installed)
    let schemas = PublishedSchemas(folders: [user, installed])
    #expect(schemas.shownSchemas.map(\.className) == ["Settings"])
    #expect(schemas.conflicts.count == 1)
  }
}

import Foundation
import ObservableDefaults

/// The settings schemas programs published (``SettingsSchemaDirectory/allFiles(in:)``), read
/// once: what the editor and the command line know of suites and cloud containers that no class
/// of their own describes.
package struct PublishedSchemas: Sendable {
  /// A usable schema and the file it came from.
  package struct Entry: Sendable {
    package let file: SettingsSchemaFile
    package let schema: SettingsSchema
  }

  /// A key of a schema, with the schema that lists it.
  package struct KeyMatch: Sendable {
    package let schema: SettingsSchema
    package let key: SettingsSchema.Key

    /// The key under which the value is stored (prefix included).
    package var storedKey: String { schema.storedKey(of: key) }
  }

  /// The usable schemas, by program then file name.
  package let entries: [Entry]
  /// The files that hold no usable schema, with the reason.
  package let unusable: [(file: SettingsSchemaFile, error: SettingsSchemaError)]
  /// The program folders that were not read (a symbolic link refused, permission denied).
  package let refusedFolders: [SettingsSchemaDirectory.RefusedFolder]

  /// Reads the schema files of `folders` (by default the user's, then the installed ones).
  package init(folders: [SettingsSchemaDirectory] = SettingsSchemaDirectory.searchPath) {
    var entries: [Entry] = []
    var unusable: [(file: SettingsSchemaFile, error: SettingsSchemaError)] = []
    let listing = SettingsSchemaDirectory.listing(in: folders)
    for file in listing.files {
      switch file.schema {
      case .success(let schema): entries.append(Entry(file: file, schema: schema))
      case .failure(let error): unusable.append((file, error))
      }
    }
    self.entries = entries
    self.unusable = unusable
    refusedFolders = listing.refusedFolders
  }

  /// One line for each problem: the program folders not read, then the unusable files.
  package var problems: [String] {
    refusedFolders.map(\.description) + unusable.map { "\($0.error)" }
  }

  /// The schemas of `store`, in the order of ``entries``.
  package func schemas(of store: SettingsSchema.Store) -> [SettingsSchema] {
    entries.map(\.schema).filter { $0.store == store }
  }

  /// Every key the schemas of `store` list, in their order (a key two schemas list, once).
  package func keys(of store: SettingsSchema.Store) -> [KeyMatch] {
    var seen: Set<String> = []
    return schemas(of: store).flatMap { schema in
      schema.keys.map { KeyMatch(schema: schema, key: $0) }
    }.filter { seen.insert($0.storedKey).inserted }
  }

  /// The key of `store` stored under `storedKey` (or a previous key of it), if a schema lists it.
  package func key(_ storedKey: String, of store: SettingsSchema.Store) -> KeyMatch? {
    for schema in schemas(of: store) {
      if let key = schema.key(stored: storedKey) { return KeyMatch(schema: schema, key: key) }
    }
    return nil
  }
}

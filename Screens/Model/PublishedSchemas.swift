import Foundation
import ObservableDefaults
package import ObservableDefaultsSchema

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
  /// The keys two files describe otherwise: the first file in ``entries`` wins.
  package let conflicts: [SchemaConflict]

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
    conflicts = SchemaConflict.conflicts(in: entries)
  }

  /// One line for each problem: the program folders not read, the unusable files, then the
  /// conflicts.
  package var problems: [String] {
    refusedFolders.map(\.description) + unusable.map { "\($0.error)" }
      + conflicts.map(\.description)
  }

  /// The usable schemas as tools show them: without the keys a conflict hides (a schema left
  /// with none is left out).
  package var shownSchemas: [SettingsSchema] {
    entries.compactMap { entry in
      let hidden = Set(conflicts.filter { $0.hidden == entry.file.url.path }.flatMap(\.keys))
      guard !hidden.isEmpty else { return entry.schema }
      var schema = entry.schema
      schema.keys.removeAll { hidden.contains(entry.schema.storedKey(of: $0)) }
      return schema.keys.isEmpty ? nil : schema
    }
  }

  /// The conflicts in which `storedKey` of `store` is described otherwise by a hidden file.
  package func conflicts(of storedKey: String, in store: SettingsSchema.Store) -> [SchemaConflict] {
    conflicts.filter { $0.store == store && $0.keys.contains(storedKey) }
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

extension SettingsSchema.Store {
  /// The store as the command line names it: the suite's name, or `cloud:<container>`.
  package var argument: String {
    switch self {
    case .suite(let name): name
    case .cloud(let container): "cloud:" + container
    }
  }
}

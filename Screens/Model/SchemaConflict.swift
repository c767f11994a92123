import ObservableDefaults
package import ObservableDefaultsSchema

/// Two published schema files that describe keys of one store otherwise: the first in the
/// search order wins — the user's folder, then each folder of `$XDG_DATA_DIRS` in its order
/// (as GSettings and the XDG Base Directory specification rank them), and within a folder by
/// program, then file name — and the other's description of those keys is hidden.
///
/// Two descriptions differ when what is stored does: the kind of value, the stored form, the
/// default, the choices or the range. Documentation and the Swift spelling of the type do not
/// count: a program and its helper that share a class describe its keys alike.
package struct SchemaConflict: Sendable, Equatable, CustomStringConvertible {
  /// The store both describe.
  package let store: SettingsSchema.Store
  /// The stored keys (prefix included) described otherwise, in the hidden file's order.
  package let keys: [String]
  /// The file whose description is used (shown as tools show paths).
  package let winner: String
  /// The file whose description of ``keys`` is hidden.
  package let hidden: String

  /// `conflict: <hidden> describes <keys> of <store> otherwise than <winner>, which comes
  /// first; its description is hidden`.
  package var description: String {
    "conflict: \(hidden) describes \(keys.joined(separator: ", ")) of \(store.argument) "
      + "otherwise than \(winner), which comes first; its description is hidden"
  }

  /// The conflicts among `entries` (in search order), one per pair of files.
  package static func conflicts(in entries: [PublishedSchemas.Entry]) -> [SchemaConflict] {
    // One schema or none: nothing to group (the grouping's table type is made at run time on
    // its first use, with a walk of every protocol conformance: 0.34 M instructions of a
    // one-shot `write`).
    guard entries.count > 1 else { return [] }
    // Only schemas of a store that another schema describes too can conflict, and most stores
    // have one: their keys are not looked at (10,000 keys of 200 schemas took 9 % of a start).
    let schemasOfStore = Dictionary(grouping: entries, by: { Store($0.schema.store) })
      .mapValues(\.count)
    var first: [Place: PublishedSchemas.Entry] = [:]
    var conflicts: [SchemaConflict] = []
    for entry in entries where schemasOfStore[Store(entry.schema.store), default: 0] > 1 {
      var hiddenKeys: [String: [String]] = [:]  // by the winner's path
      var winners: [String] = []
      for key in entry.schema.keys {
        let place = Place(store: Store(entry.schema.store), key: entry.schema.storedKey(of: key))
        guard let winner = first[place] else {
          first[place] = entry
          continue
        }
        let described = winner.schema.key(stored: place.key)
        guard let described, !Self.alike(described, key) else { continue }
        let path = winner.file.url.path
        if hiddenKeys[path] == nil { winners.append(path) }
        hiddenKeys[path, default: []].append(place.key)
      }
      conflicts += winners.map { winner in
        SchemaConflict(
          store: entry.schema.store, keys: hiddenKeys[winner] ?? [], winner: winner,
          hidden: entry.file.url.path)
      }
    }
    return conflicts
  }

  /// A suite or cloud container, hashable.
  private struct Store: Hashable {
    let isCloud: Bool
    let name: String

    init(_ store: SettingsSchema.Store) {
      switch store {
      case .suite(let name): (isCloud, self.name) = (false, name)
      case .cloud(let container): (isCloud, self.name) = (true, container)
      }
    }
  }

  /// A stored key of a store.
  private struct Place: Hashable {
    let store: Store
    let key: String
  }

  /// Whether two descriptions of a key store the same: documentation and names aside.
  private static func alike(_ one: SettingsSchema.Key, _ other: SettingsSchema.Key) -> Bool {
    one.valueType == other.valueType && one.storedForm == other.storedForm
      && one.defaultValue == other.defaultValue && one.choices == other.choices
      && one.range == other.range
  }
}

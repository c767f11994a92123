/// The writes of a suite that are not in its file yet, in the order they were made, each with the
/// value it replaced in memory.
///
/// A write appends one entry, without hashing its key: the dictionary this replaced cost a tenth
/// of a write in the burst benchmark's profile. A write of the key the last entry holds replaces
/// that entry's change instead (the latest change of a key wins, and nothing was written after
/// it), so a burst of writes to one property leaves one entry per flush, not one per write: each
/// entry costs the flush a hash and a dictionary insert, which were about a third of each write's
/// instructions in the burst benchmark (callgrind). A flush takes them as one change per key,
/// the latest winning, so the log never holds more than the writes made since the last flush
/// (attempt) plus one change per key.
///
/// The value the first entry of a key replaced is the key's value in the file (absent: nil): the
/// suite keeps no dictionary of the file's values beside memory's, whose other keys hold the
/// file's values (issue 42, item 3). A re-read that finds another value in the file for a pending
/// key puts it there (``noteFileValues(_:forKeys:)``).
struct PendingChanges {
  /// One write, or a run of writes of one key.
  ///
  /// A struct, not a labeled tuple: a tuple holding existentials is copied and destroyed through
  /// the runtime's generic tuple witnesses (`tuple_initializeWithCopy`), which were a fifth of
  /// `settings-editor delete`'s profile of a 100,000-key suite (the flush's ``latest`` and
  /// ``revert(_:)`` copied every entry so); a struct's copies are specialized.
  private struct Entry {
    let key: PropertyListKey
    var change: PropertyListChange
    var replaced: Any?
  }

  private var log: [Entry] = []
  /// The key of the log's last entry, nil when the log is empty: compared without copying the
  /// entry out of the log (which cost a write more than the append it saves).
  private var lastKey: PropertyListKey?

  /// Whether no change is pending.
  var isEmpty: Bool { log.isEmpty }

  /// How many entries the log holds (for tests: consecutive writes of one key are one entry).
  var entryCount: Int { log.count }

  /// The keys with a pending change.
  var keys: Set<PropertyListKey> { Set(log.lazy.map(\.key)) }

  /// Adds the latest change of `key`, which replaced `replaced` (nil: the key was absent) in
  /// memory. A write of the last entry's key changes that entry, which keeps the value its first
  /// write replaced.
  mutating func append(
    _ change: PropertyListChange, forKey key: PropertyListKey, replacing replaced: Any?
  ) {
    guard !replaceLast(forKey: key, with: change) else { return }
    log.append(Entry(key: key, change: change, replaced: replaced))
    lastKey = key
  }

  /// Makes `change` the change of the log's last entry when that entry is `key`'s, as
  /// ``append(_:forKey:replacing:)`` does; whether it was (else nothing changes).
  mutating func replaceLast(forKey key: PropertyListKey, with change: PropertyListChange) -> Bool {
    // A property's key is one string object: equal at once (``PropertyListKey/==``).
    guard let lastKey, lastKey == key else { return false }
    log[log.count - 1].change = change
    return true
  }

  /// Takes every pending change and leaves none pending: a swap, for the owner's lock.
  mutating func take() -> PendingChanges {
    defer { (log, lastKey) = ([], nil) }
    return self
  }

  /// The latest change of each key; hashes every key, so build it outside the owner's lock.
  var latest: [PropertyListKey: PropertyListChange] {
    // A loop, not `Dictionary(_:uniquingKeysWith:)`: that took the log's labeled tuples through
    // a dynamic cast of each entry to an unlabeled one.
    var latest: [PropertyListKey: PropertyListChange] = [:]
    latest.reserveCapacity(log.count)
    for entry in log { latest[entry.key] = entry.change }
    return latest
  }

  /// The value in the file of each key with a pending change (the value its first change
  /// replaced); a key absent from the file has none. Hashes every key, as ``latest``.
  var fileValues: [PropertyListKey: Any] {
    var values: [PropertyListKey: Any] = [:]
    revert(&values)
    return values
  }

  /// Puts the file's value back into `values` (memory's) for each key with a pending change:
  /// memory's values less the pending writes are the file's.
  func revert(_ values: inout [PropertyListKey: Any]) {
    var seen = Set<PropertyListKey>()
    for entry in log where seen.insert(entry.key).inserted {
      values[entry.key] = entry.replaced
    }
  }

  /// Records `file`'s value (nil: absent) as the file's value of each of `keys` that has a
  /// pending change: another writer changed them in the file, and the flush compares with it.
  mutating func noteFileValues(_ file: [PropertyListKey: Any], forKeys keys: Set<PropertyListKey>) {
    var seen = Set<PropertyListKey>()
    for index in log.indices where keys.contains(log[index].key) {
      if seen.insert(log[index].key).inserted { log[index].replaced = file[log[index].key] }
    }
  }

  /// The keys with a pending change, in the order of their latest change (earliest first).
  var keysInOrderMade: [PropertyListKey] {
    var seen = Set<PropertyListKey>()
    return log.reversed().compactMap { seen.insert($0.key).inserted ? $0.key : nil }.reversed()
  }

  /// Puts back changes a failed flush took, before the changes made since, which win over them.
  ///
  /// - Parameters:
  ///   - changes: The changes taken.
  ///   - fileValues: The file's value of each of their keys (``fileValues``).
  mutating func restore(
    _ changes: [PropertyListKey: PropertyListChange], fileValues: [PropertyListKey: Any]
  ) {
    log = changes.map { Entry(key: $0.key, change: $0.value, replaced: fileValues[$0.key]) } + log
    lastKey = log.last?.key
  }
}

/// The writes of a suite that are not in its file yet, in the order they were made.
///
/// A write appends one entry, without hashing its key: the dictionary this replaced cost a tenth
/// of a write in the burst benchmark's profile. A write of the key the last entry holds replaces
/// that entry instead (the latest change of a key wins, and nothing was written after it), so a
/// burst of writes to one property leaves one entry per flush, not one per write: each entry
/// costs the flush a hash and a dictionary insert, which were about a third of each write's
/// instructions in the burst benchmark (callgrind). A flush takes them as one change per key,
/// the latest winning, so the log never holds more than the writes made since the last flush
/// (attempt) plus one change per key.
struct PendingChanges {
  private var log: [(key: PropertyListKey, change: PropertyListChange)] = []
  /// The key of the log's last entry, nil when the log is empty: compared without copying the
  /// entry out of the log (which cost a write more than the append it saves).
  private var lastKey: PropertyListKey?

  /// Whether no change is pending.
  var isEmpty: Bool { log.isEmpty }

  /// How many entries the log holds (for tests: consecutive writes of one key are one entry).
  var entryCount: Int { log.count }

  /// The keys with a pending change.
  var keys: Set<PropertyListKey> { Set(log.lazy.map(\.key)) }

  /// Adds the latest change of `key`.
  mutating func append(_ change: PropertyListChange, forKey key: PropertyListKey) {
    // A property's key is one string object: equal at once (``PropertyListKey/==``).
    if let lastKey, lastKey == key {
      log[log.count - 1].change = change
    } else {
      log.append((key, change))
      lastKey = key
    }
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

  /// Puts back changes a failed flush took, before the changes made since, which win over them.
  mutating func restore(_ changes: [PropertyListKey: PropertyListChange]) {
    log = changes.map { ($0.key, $0.value) } + log
    lastKey = log.last?.key
  }
}

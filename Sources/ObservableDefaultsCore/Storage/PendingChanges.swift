/// The writes of a suite that are not in its file yet, in the order they were made.
///
/// A write appends one entry, without hashing its key: the dictionary this replaced cost a tenth
/// of a write in the burst benchmark's profile. A flush takes them as one change per key, the
/// latest winning, so the log never holds more than the writes made since the last flush
/// (attempt) plus one change per key.
struct PendingChanges {
  private var log: [(key: PropertyListKey, change: PropertyListChange)] = []

  /// Whether no change is pending.
  var isEmpty: Bool { log.isEmpty }

  /// The keys with a pending change.
  var keys: Set<PropertyListKey> { Set(log.lazy.map(\.key)) }

  /// Adds the latest change of `key`.
  mutating func append(_ change: PropertyListChange, forKey key: PropertyListKey) {
    log.append((key, change))
  }

  /// Takes every pending change and leaves none pending: a swap, for the owner's lock.
  mutating func take() -> PendingChanges {
    defer { log = [] }
    return self
  }

  /// The latest change of each key; hashes every key, so build it outside the owner's lock.
  var latest: [PropertyListKey: PropertyListChange] {
    Dictionary(log, uniquingKeysWith: { _, latest in latest })
  }

  /// The keys with a pending change, in the order of their latest change (earliest first).
  var keysInOrderMade: [PropertyListKey] {
    var seen = Set<PropertyListKey>()
    return log.reversed().compactMap { seen.insert($0.key).inserted ? $0.key : nil }.reversed()
  }

  /// Puts back changes a failed flush took, before the changes made since, which win over them.
  mutating func restore(_ changes: [PropertyListKey: PropertyListChange]) {
    log = changes.map { ($0.key, $0.value) } + log
  }
}

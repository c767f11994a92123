/// Where the keys written last sit in a suite's dictionary of values (``SuiteStorage``), so a
/// write of one of them replaces its value in place, without hashing the key.
///
/// A property's key reaches the suite as the same string on every write (a literal of the
/// setter): it is recognized by its representation alone (``PropertyListKey/isSameString(as:)``,
/// two words compared), and the key's hash and the dictionary's probe (about 450 instructions of
/// a property write in the burst benchmark's profile) are paid once, by the first write. A key
/// built anew for each write (a prefixed key longer than a small string) is not recognized and
/// takes the hashed lookup, as before.
///
/// An index stays valid while no key is added to or removed from the dictionary (a copy made
/// for another reference keeps every entry in its bucket); the owner calls ``forget()`` on every
/// such change, under its lock, as every other call.
struct KeySlots {
  typealias Index = [PropertyListKey: Any].Index

  /// The keys remembered (four: a settings object's properties written in turn) and their
  /// indexes.
  private var entries = InlineArray<4, (key: PropertyListKey, index: Index)?>(repeating: nil)
  /// The entry the next key replaces (the oldest one).
  private var next = 0
  /// Whether any entry is set: ``forget()`` does nothing otherwise.
  private var isEmpty = true

  /// The index of `key` in the dictionary, when it is the string of a key remembered.
  func index(of key: PropertyListKey) -> Index? {
    guard !isEmpty else { return nil }
    for slot in entries.indices {
      if let entry = entries[slot], entry.key.isSameString(as: key) { return entry.index }
    }
    return nil
  }

  /// Remembers that `key` is at `index`, in place of the oldest key remembered.
  mutating func remember(_ key: PropertyListKey, at index: Index) {
    entries[next] = (key, index)
    next = (next + 1) % entries.count
    isEmpty = false
  }

  /// Forgets every index: a key was added to or removed from the dictionary.
  mutating func forget() {
    guard !isEmpty else { return }
    entries = InlineArray(repeating: nil)
    isEmpty = true
  }
}

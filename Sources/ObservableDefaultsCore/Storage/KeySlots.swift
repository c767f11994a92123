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

  /// The keys remembered (four: a settings object's properties written in turn), and at the
  /// same positions their indexes. Two arrays of non-optional values: walking optional
  /// key-and-index pairs copied and destroyed each through `Optional`'s generic value witnesses,
  /// about 90 instructions a pair, more than the hash the slots save.
  private var keys: [PropertyListKey] = []
  private var indexes: [Index] = []
  /// The position the next key replaces once four are remembered (the oldest one).
  private var next = 0

  /// The position of `key` among the keys remembered, when it is the string of one of them
  /// (``index(at:)`` gives its index).
  func slot(of key: PropertyListKey) -> Int? {
    for slot in keys.indices where keys[slot].isSameString(as: key) { return slot }
    return nil
  }

  /// The index of the key remembered at `slot`.
  func index(at slot: Int) -> Index {
    indexes[slot]
  }

  /// Remembers that `key` is at `index`, in place of the oldest key remembered.
  mutating func remember(_ key: PropertyListKey, at index: Index) {
    guard keys.count == 4 else {
      keys.append(key)
      indexes.append(index)
      return
    }
    keys[next] = key
    indexes[next] = index
    next = (next + 1) % 4
  }

  /// Forgets every index: a key was added to or removed from the dictionary.
  mutating func forget() {
    guard !keys.isEmpty else { return }
    keys.removeAll(keepingCapacity: true)
    indexes.removeAll(keepingCapacity: true)
    next = 0
  }
}

import Foundation

/// A table of objects held weakly by key: the one registry mechanism of the core (suite storages
/// by file, cloud devices by backend, in-memory devices by container).
///
/// Deadlock-free by construction: no strong reference to a registered object is ever released
/// while ``lock`` is held. Loading a weak reference makes a strong one; if the object's last
/// other owner lets go meanwhile, releasing that strong one runs the object's `deinit`, which
/// calls back into the registry (``remove(_:ifStillHolding:)``) and would block on the same
/// non-recursive lock. So every strong reference made under the lock is handed out to the
/// caller and released after the lock is dropped, and an entry is removed by comparing object
/// identities (which needs no strong reference), never by testing the weak reference for nil.
final class WeakRegistry<Key: Hashable, Object: AnyObject>: @unchecked Sendable {
  private final class Entry {
    weak var object: Object?
    /// The identity of the object when it was registered, compared without loading `object`.
    let identity: ObjectIdentifier
    init(_ object: Object) {
      self.object = object
      identity = ObjectIdentifier(object)
    }
  }

  private let lock = NSLock()
  // Guarded by `lock`.
  private var table: [Key: Entry] = [:]
  private var hasCreated = false

  /// The live object of `key`, or a new one from `make` (called under the lock, so one key never
  /// gets two objects; `make` must not use this registry).
  ///
  /// - Returns: The object; whether `make` created it; whether it is the first object this
  ///   registry ever created (for installing a one-time hook).
  func object(for key: Key, make: () -> Object) -> (object: Object, isNew: Bool, isFirst: Bool) {
    lock.withLock {
      if let existing = table[key]?.object { return (existing, false, false) }
      let created = make()
      table[key] = Entry(created)
      defer { hasCreated = true }
      return (created, true, !hasCreated)
    }
  }

  /// Every live object, forgetting the entries of objects that are gone.
  func liveObjects() -> [Object] {
    // The strong references made here leave the lock inside the returned array.
    lock.withLock {
      var live: [Object] = []
      live.reserveCapacity(table.count)
      table = table.filter { _, entry in
        guard let object = entry.object else { return false }
        live.append(object)
        return true
      }
      return live
    }
  }

  /// Forgets `key` when its entry still names `object` (an object being deinitialized removes
  /// its own entry; a newer object registered under the key meanwhile is kept).
  ///
  /// Safe to call from `deinit`: it makes no strong reference.
  func remove(_ key: Key, ifStillHolding object: ObjectIdentifier) {
    lock.withLock {
      if table[key]?.identity == object { table[key] = nil }
    }
  }
}

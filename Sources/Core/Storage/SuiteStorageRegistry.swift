import Foundation

/// The weakly held table of live ``SuiteStorage`` objects, one per file (symbolic links
/// resolved), so every ``PropertyListDefaults`` of one file in this process shares one storage.
///
/// The first storage created installs an `atexit` hook that flushes every storage with pending
/// writes, so a value set without `synchronize()` reaches the file when the process exits normally.
final class SuiteStorageRegistry: @unchecked Sendable {
  static let shared = SuiteStorageRegistry()

  private final class WeakStorage {
    weak var storage: SuiteStorage?
    init(_ storage: SuiteStorage) { self.storage = storage }
  }

  private let lock = NSLock()
  private var table: [String: WeakStorage] = [:]
  private var exitHookInstalled = false

  /// The storage of the file at `url`, created (and its file loaded and watched) on first use.
  func storage(for url: URL) -> SuiteStorage {
    let resolved = url.standardizedFileURL.resolvingSymlinksInPath()
    let (storage, isNew, installHook): (SuiteStorage, Bool, Bool) = lock.withLock {
      if let existing = table[resolved.path]?.storage { return (existing, false, false) }
      let created = SuiteStorage(file: PropertyListFile(url: resolved))
      table[resolved.path] = WeakStorage(created)
      defer { exitHookInstalled = true }
      return (created, true, !exitHookInstalled)
    }
    if installHook { atexit { SuiteStorageRegistry.shared.flushAll() } }
    if isNew { DirectoryWatcher.shared.watch(storage) }
    return storage
  }

  /// The live storage of the resolved path `path`, if any.
  func existingStorage(atPath path: String) -> SuiteStorage? {
    lock.withLock { table[path]?.storage }
  }

  /// Forgets the table entries of storages that are gone.
  func removeReleased() {
    lock.withLock { table = table.filter { $0.value.storage != nil } }
  }

  /// Flushes every live storage and waits for flushes already running (the `atexit` hook).
  private func flushAll() {
    let live = lock.withLock { table.values.compactMap(\.storage) }
    for storage in live {
      try? storage.flush()
    }
  }
}

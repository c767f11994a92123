import Foundation

/// The live ``SuiteStorage`` objects, one per file (symbolic links resolved), so every
/// ``PropertyListDefaults`` of one file in this process shares one storage.
///
/// The first storage created installs an `atexit` hook that flushes every storage with pending
/// writes, so a value set without `synchronize()` reaches the file when the process exits normally.
final class SuiteStorageRegistry: Sendable {
  static let shared = SuiteStorageRegistry()

  /// Resolved path → storage.
  private let storages = WeakRegistry<String, SuiteStorage>()

  /// The storage of the file at `url`, created (and its file loaded and watched) on first use.
  func storage(for url: URL) -> SuiteStorage {
    let resolved = SymbolicLinks.identity(of: url)
    let (storage, isNew, isFirst) = storages.object(for: resolved.path) {
      SuiteStorage(file: PropertyListFile(url: resolved))
    }
    if isFirst { atexit { SuiteStorageRegistry.shared.flushAll() } }
    if isNew {
      SuiteOpenProbe.run(with: storage.file.url)
      storage.startWatching()
    }
    return storage
  }

  /// Forgets `storage` (from its `deinit`).
  func remove(_ storage: SuiteStorage) {
    storages.remove(storage.file.url.path, ifStillHolding: ObjectIdentifier(storage))
  }

  /// Flushes the live storages of the files inside `folder` and waits for them: a folder about to
  /// be removed, which no late write of this process may make again.
  func flush(inside folder: URL) {
    let prefix = SymbolicLinks.identity(of: folder).path + "/"
    for storage in storages.liveObjects() where storage.file.url.path.hasPrefix(prefix) {
      try? storage.flush()
    }
  }

  /// Flushes every live storage and waits for flushes already running (the `atexit` hook).
  private func flushAll() {
    for storage in storages.liveObjects() {
      try? storage.flush()
    }
  }
}

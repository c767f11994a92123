import Foundation

/// The system-wide defaults and mandatory values of one suite in one list of system folders,
/// kept current: every ``PropertyListDefaults`` of the suite in this process shares one.
///
/// Each file is watched through the process's one ``DirectoryWatcher`` (a folder that does not
/// exist yet is waited for); on a change the files are read again on an internal queue, a file
/// that is not used any more (or again) is reported to ``Diagnostics`` once, and the observers
/// are told the old and new values with the keys that differ.
final class SystemLayers: @unchecked Sendable {
  // Sendable: its state is guarded by `lock`; `current` holds property-list values (`Any`),
  // which a `Mutex` cannot hand out.
  /// What observers are told: the values before and after, and the keys that differ.
  struct Change: Sendable {
    let old: SystemDefaults
    let new: SystemDefaults
    let keys: Set<PropertyListKey>
  }

  let suite: String
  let folders: [URL]
  /// The key of this object in ``registry``.
  private let registryKey: [String]
  private let lock = NSLock()
  // Guarded by `lock`.
  private var current: SystemDefaults
  private var observers = ObserverList<Change>()
  private var watches: [ObservationToken] = []
  /// The watches of the files that the system files which are symbolic links lead to, by path:
  /// an edit of a target in another folder changes nothing in the folders watched. Followed
  /// again at each re-read, as a link may be pointed elsewhere.
  private var targetWatches: [String: ObservationToken] = [:]
  private let queue: DispatchQueue

  /// Reads the files of `suite` in `folders` now and reports the problems found.
  private init(suite: String, folders: [URL]) {
    self.suite = suite
    self.folders = folders
    registryKey = Self.registryKey(suite: suite, folders: folders)
    queue = DispatchQueue(label: "ObservableDefaultsCore.system:" + suite)
    current = SystemDefaults(suite: suite, folders: folders)
    Self.report(current.problems, before: [])
  }

  private static let registry = WeakRegistry<[String], SystemLayers>()

  /// The layers of `suite` in `folders`, made (read and watched) on first use.
  static func of(suite: String, folders: [URL]) -> SystemLayers {
    let (layers, isNew, _) = registry.object(for: registryKey(suite: suite, folders: folders)) {
      SystemLayers(suite: suite, folders: folders)
    }
    if isNew { layers.startWatching() }
    return layers
  }

  private static func registryKey(suite: String, folders: [URL]) -> [String] {
    [suite] + folders.map(\.path)
  }

  deinit {
    Self.registry.remove(registryKey, ifStillHolding: ObjectIdentifier(self))
  }

  /// The values now.
  var values: SystemDefaults { lock.withLock { current } }

  /// The mandatory value of `key` and its file, nil when it is not mandatory: the check of every
  /// write, which copies nothing and builds no key while no value is mandatory.
  func mandatoryEntry(forKey key: String) -> SystemDefaults.Entry? {
    lock.withLock { current.mandatory.isEmpty ? nil : current.mandatory[PropertyListKey(key)] }
  }

  /// Calls `handler` on an internal queue whenever the files change what they hold.
  func addObserver(_ handler: @escaping @Sendable (Change) -> Void) -> ObservationToken {
    let id = ObserverIDs.next()
    lock.withLock { observers.add(id: id, handler) }
    return ObservationToken(id: id) { [weak self] in
      guard let self else { return }
      self.lock.withLock { self.observers.remove(id: id) }
    }
  }

  /// The files read, each folder's defaults and mandatory file.
  private var files: [URL] {
    folders.flatMap { folder in
      [
        SystemDefaults.defaultsFile(of: suite, in: folder),
        SystemDefaults.mandatoryFile(of: suite, in: folder),
      ]
    }
  }

  private func startWatching() {
    let tokens = files.map { file in
      DirectoryWatcher.shared.watch(fileAt: file) { [weak self] in self?.filesDidChange() }
    }
    lock.withLock { watches = tokens }
    watchLinkTargets()
  }

  /// Watches the file each system file that is a symbolic link leads to now, and stops
  /// watching those no link leads to any more.
  private func watchLinkTargets() {
    let targets = Set(
      files.compactMap { file -> String? in
        guard (try? Stat(file.path, followTargetSymlink: false))?.type == .symbolicLink else {
          return nil
        }
        return FileSystem.resolvedPath(file.path)
      })
    let (added, removed): ([String], [ObservationToken]) = lock.withLock {
      let removed = targetWatches.filter { !targets.contains($0.key) }
      for path in removed.keys { targetWatches[path] = nil }
      return (targets.filter { targetWatches[$0] == nil }, Array(removed.values))
    }
    for token in removed { token.cancel() }
    for target in added {
      let token = DirectoryWatcher.shared.watch(fileAt: URL(fileURLWithPath: target)) {
        [weak self] in self?.filesDidChange()
      }
      let replaced = lock.withLock { targetWatches.updateValue(token, forKey: target) }
      replaced?.cancel()
    }
  }

  /// Reads the files again on ``queue`` and tells observers what changed.
  private func filesDidChange() {
    queue.async { [weak self] in self?.reread() }
  }

  /// Reads the files again now, and tells observers what changed (on this thread).
  func reread() {
    watchLinkTargets()
    let new = SystemDefaults(suite: suite, folders: folders, previous: values)
    let (old, targets): (SystemDefaults, ObserverList<Change>) = lock.withLock {
      defer { current = new }
      return (current, observers)
    }
    Self.report(new.problems, before: old.problems)
    let keys = new.changedKeys(comparedTo: old)
    guard !keys.isEmpty else { return }
    targets.notify(Change(old: old, new: new, keys: keys))
  }

  /// Reports each of `problems` that `before` did not hold.
  private static func report(_ problems: [String], before: [String]) {
    for problem in problems where !before.contains(problem) {
      Diagnostics.report("PropertyListDefaults", problem)
    }
  }
}

import Foundation

/// The process's one inotify instance, watching the folders of live suite files.
///
/// It watches folders, not files, because an atomic save replaces the file's inode. One way in,
/// ``watch(fileAt:onChange:)``: an event naming a watched file calls that file's callbacks (a
/// ``SuiteStorage`` re-reads, diffs and reports). A folder is watched while at least one callback
/// of a file in it lives. A folder that does not exist yet (or goes away) is waited for: its
/// nearest existing ancestor is watched for new folders, and once the folder appears — made by
/// any process — it is watched and the callbacks of its files are called (the file may already
/// be there).
///
/// The folders are watched from 0.1 s after the first watch on: a program that exits
/// sooner (a one-shot command, a program that reads its settings and ends) never adds an inotify
/// watch, so its exit does not wait for the kernel to free one: closing an inotify descriptor
/// that holds watches waits, asleep, for the kernel's notification marks to be reclaimed after
/// a grace period (measured here with a C program that adds one watch and exits: 28 ms against
/// 10–13 ms without, at load 22 on 2 cores). When the watcher starts, the callbacks of every
/// file watched until then are called once, so a change made in between is reported then; a
/// watch asked for after the start is called once too, once its folder is watched: its owner
/// read the file before asking (a suite reads it when it opens), and a change made between that
/// read and the watch named no callback of it.
final class DirectoryWatcher: @unchecked Sendable {
  // Sendable: its tables are guarded by `lock`; `source` is a dispatch source set in init.
  static let shared = DirectoryWatcher()

  private struct Folder {
    var descriptor: Int32
    /// File name → the watches of it.
    var files: [String: Set<ObjectIdentifier>] = [:]
  }

  /// Completed writes, renames in and out, deletions, and the folder itself going away. Not
  /// `IN_CREATE`: a file being created is still empty; its `IN_CLOSE_WRITE` follows.
  private static let mask = UInt32(
    IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)

  private let inotify: Inotify?
  private let queue = DispatchQueue(label: "ObservableDefaultsCore.watcher")
  private let source: (any DispatchSourceRead)?
  private let lock = NSLock()
  // Guarded by `lock`: folder path → watch, watch descriptor → folder path.
  private var folders: [String: Folder] = [:]
  private var paths: [Int32: String] = [:]
  // Guarded by `lock`: file path → watcher → callback (see `watch(fileAt:onChange:)`).
  private var callbacks: [String: [ObjectIdentifier: @Sendable () -> Void]] = [:]
  // Guarded by `lock`: files whose folder does not exist, path → watches; and the watches of the
  // nearest existing ancestors of those folders (watch descriptor → path), told of new folders.
  private var waiting: [String: Set<ObjectIdentifier>] = [:]
  private var ancestors: [Int32: String] = [:]
  // Guarded by `lock`: the watches asked for before the watcher started (file, watch), and its
  // state: not scheduled, scheduled, started.
  private var deferred: [(url: URL, id: ObjectIdentifier)] = []
  private var startState = Start.notScheduled
  private enum Start { case notScheduled, scheduled, started }
  /// How long after the first watch the folders are watched.
  private let startDelay: DispatchTimeInterval

  /// A watcher whose folders are watched from `startDelay` after its first watch on (the
  /// process's one: 0.1 s).
  init(startDelay: DispatchTimeInterval = .milliseconds(100)) {
    self.startDelay = startDelay
    let inotify: Inotify
    do {
      inotify = try Inotify()
    } catch {
      Diagnostics.report(
        "PropertyListDefaults",
        "inotify unavailable (\(error)); changes by other processes are seen only by "
          + "synchronize()")
      (self.inotify, source) = (nil, nil)
      return
    }
    self.inotify = inotify
    let source = DispatchSource.makeReadSource(
      fileDescriptor: inotify.descriptor.rawValue, queue: queue)
    self.source = source
    source.setEventHandler { [unowned self] in self.readEvents() }
    source.resume()
  }

  /// A watcher identity for ``watch(fileAt:onChange:)``, alive until its watch ends.
  private final class CallbackWatch: Sendable {}

  /// Calls `onChange` on the watcher's queue whenever the file at `url` (a resolved path in an
  /// existing folder) may have changed, until the returned observation ends, and once when the
  /// file is first watched (the watcher's start, or at once when it started already). Several
  /// callbacks may watch one file. A file named ``anyFile`` stands for every file of the folder.
  func watch(fileAt url: URL, onChange: @escaping @Sendable () -> Void) -> ObservationToken {
    let token = CallbackWatch()
    let id = ObjectIdentifier(token)
    let isStarted = lock.withLock {
      callbacks[url.path, default: [:]][id] = onChange
      if startState == .started {
        addWatch(url, for: id)
        return true
      }
      deferred.append((url, id))
      scheduleStart()
      return false
    }
    // A change made since the caller read the file, before its callback was in place.
    if isStarted { queue.async(execute: onChange) }
    return ObservationToken { [self] in
      lock.withLock {
        callbacks[url.path]?[id] = nil
        if callbacks[url.path]?.isEmpty == true { callbacks[url.path] = nil }
      }
      unwatch(url, for: ObjectIdentifier(token))
    }
  }

  /// Schedules ``startWatching()`` `startDelay` from now, once (called with `lock` held).
  private func scheduleStart() {
    guard startState == .notScheduled, inotify != nil else { return }
    startState = .scheduled
    queue.asyncAfter(deadline: .now() + startDelay) { [self] in startWatching() }
  }

  /// Watches the folders of the files watched so far and calls their callbacks once (a file may
  /// have changed since its watch was asked for); later watches start at once. Called when
  /// `startDelay` has passed; calling it sooner starts the watcher sooner.
  func startWatching() {
    let files = lock.withLock {
      guard startState != .started else { return Set<String>() }
      startState = .started
      let files = deferred
      deferred = []
      for (url, id) in files { addWatch(url, for: id) }
      return Set(files.map(\.url.path))
    }
    callBack(files)
  }

  /// Watches the folder of `url` for events naming its file, for the watch `id` (called with
  /// `lock` held).
  private func addWatch(_ url: URL, for id: ObjectIdentifier) {
    let folder = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    guard let inotify, folders[folder]?.files[name]?.contains(id) != true else { return }
    if folders[folder] == nil {
      guard let descriptor = try? inotify.addWatch(folder, mask: Self.mask) else {
        waitForFolder(of: url, for: id)
        return
      }
      folders[folder] = Folder(descriptor: descriptor)
      paths[descriptor] = folder
    }
    folders[folder]?.files[name, default: []].insert(id)
  }

  /// Notes that the folder of `url` is missing for the watch `id`, and watches its nearest
  /// existing ancestor for new folders (called with `lock` held).
  private func waitForFolder(of url: URL, for id: ObjectIdentifier) {
    waiting[url.path, default: []].insert(id)
    guard let inotify else { return }
    var ancestor = url.deletingLastPathComponent().deletingLastPathComponent()
    while true {
      // IN_MASK_ADD: an ancestor may be a watched folder too; its mask is kept.
      if let descriptor = try? inotify.addWatch(
        ancestor.path, mask: UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) | UInt32(IN_MASK_ADD))
      {
        ancestors[descriptor] = ancestor.path
        // The folder may have appeared before the ancestor was watched: look once more.
        if FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path) {
          queue.async { [self] in callBack(lock.withLock { watchAppearedFolders() }) }
        }
        return
      }
      guard ancestor.path != "/" else { return }
      ancestor = ancestor.deletingLastPathComponent()
    }
  }

  /// Whether `event` may mean that a folder waited for appeared, or that an ancestor watched for
  /// one went away (then a higher one is watched instead) (called with `lock` held).
  private func concernsWaitingFiles(_ event: Inotify.Event) -> Bool {
    guard ancestors[event.watch] != nil else { return false }
    if event.mask & UInt32(IN_IGNORED) != 0 {
      ancestors[event.watch] = nil
      return true
    }
    return event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0
  }

  /// Watches the folders that appeared for the files waiting for them (the others wait on, from
  /// their nearest existing ancestor); returns the paths of the files now watched (called with
  /// `lock` held). Ancestor watches no longer needed end.
  private func watchAppearedFolders() -> [String] {
    let waited = waiting
    waiting = [:]
    for (path, ids) in waited {
      for id in ids { addWatch(URL(fileURLWithPath: path), for: id) }
    }
    if waiting.isEmpty {
      for descriptor in ancestors.keys where paths[descriptor] == nil {
        inotify?.removeWatch(descriptor)
      }
      ancestors = [:]
    }
    return waited.keys.filter { waiting[$0] == nil }
  }

  /// Stops reporting changes of the file at `url` (a resolved path) for the watch `id`.
  private func unwatch(_ url: URL, for id: ObjectIdentifier) {
    let folder = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    lock.withLock {
      deferred.removeAll { $0.id == id }
      waiting[url.path]?.remove(id)
      if waiting[url.path]?.isEmpty == true { waiting[url.path] = nil }
      guard var watched = folders[folder], var watchers = watched.files[name] else { return }
      watchers.remove(id)
      watched.files[name] = watchers.isEmpty ? nil : watchers
      if watched.files.isEmpty {
        inotify?.removeWatch(watched.descriptor)
        paths[watched.descriptor] = nil
        folders[folder] = nil
      } else {
        folders[folder] = watched
      }
    }
  }

  /// Drains the inotify descriptor and calls the callbacks of the named files.
  private func readEvents() {
    guard let inotify else { return }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var touched = Set<String>()
    var folderAppeared = false
    for event in inotify.readEvents(using: &buffer) {
      if lock.withLock({ concernsWaitingFiles(event) }) { folderAppeared = true }
      touched.formUnion(paths(for: event))
    }
    if folderAppeared { touched.formUnion(lock.withLock { watchAppearedFolders() }) }
    callBack(touched)
  }

  /// Calls the callbacks of the files at `paths` (on the watcher's queue, without `lock`).
  private func callBack(_ paths: some Collection<String>) {
    for path in paths {
      for callback in lock.withLock({ callbacks[path].map { Array($0.values) } ?? [] }) {
        callback()
      }
    }
  }

  /// The file paths an event concerns: the named file, every watched file of the folder when the
  /// folder itself went away or events were lost.
  private func paths(for event: Inotify.Event) -> [String] {
    let name = event.name
    return lock.withLock {
      if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
        return folders.flatMap { folder, watched in watched.files.keys.map { folder + "/" + $0 } }
      }
      guard let folder = paths[event.watch], let watched = folders[folder] else { return [] }
      if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
        if event.mask & UInt32(IN_IGNORED) != 0 {
          paths[event.watch] = nil
          folders[folder] = nil
          // The folder went away: its files wait for it to come back.
          for (name, ids) in watched.files {
            for id in ids { waitForFolder(of: URL(fileURLWithPath: folder + "/" + name), for: id) }
          }
        }
        return watched.files.keys.map { folder + "/" + $0 }
      }
      // A file being created is still empty (its IN_CLOSE_WRITE follows); IN_CREATE is in the
      // mask only of a folder that is also an ancestor waited on.
      if event.mask & UInt32(IN_CREATE) != 0 { return [] }
      let file = watched.files[name] == nil ? [] : [folder + "/" + name]
      return file + (watched.files[Self.anyFile] == nil ? [] : [folder + "/" + Self.anyFile])
    }
  }

  /// The number of folders watched with inotify.
  var watchedFolderCount: Int { lock.withLock { folders.count } }

  /// The file name that stands for every file of its folder in ``watch(fileAt:onChange:)``.
  static let anyFile = "*"
}

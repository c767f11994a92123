import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The process's one inotify instance, watching the folders of live suite files.
///
/// It watches folders, not files, because an atomic save replaces the file's inode. One way in,
/// ``watch(fileAt:onChange:)``: an event naming a watched file calls that file's callbacks (a
/// ``SuiteStorage`` re-reads, diffs and reports). A folder is watched while at least one callback
/// of a file in it lives. A folder that does not exist yet is watched once a write creates it
/// (``watchAgain(fileAt:)``).
final class DirectoryWatcher: @unchecked Sendable {
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

  private let inotify: Int32
  private let queue = DispatchQueue(label: "ObservableDefaultsCore.watcher")
  private let source: (any DispatchSourceRead)?
  private let lock = NSLock()
  // Guarded by `lock`: folder path → watch, watch descriptor → folder path.
  private var folders: [String: Folder] = [:]
  private var paths: [Int32: String] = [:]
  // Guarded by `lock`: file path → watcher → callback (see `watch(fileAt:onChange:)`).
  private var callbacks: [String: [ObjectIdentifier: @Sendable () -> Void]] = [:]

  private init() {
    inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard inotify >= 0 else {
      Diagnostics.report(
        "PropertyListDefaults",
        "inotify unavailable (\(systemError())); changes by other processes are seen only by "
          + "synchronize()")
      source = nil
      return
    }
    let source = DispatchSource.makeReadSource(fileDescriptor: inotify, queue: queue)
    self.source = source
    source.setEventHandler { [unowned self] in self.readEvents() }
    source.resume()
  }

  /// A watcher identity for ``watch(fileAt:onChange:)``, alive until its watch ends.
  private final class CallbackWatch: Sendable {}

  /// Calls `onChange` on the watcher's queue whenever the file at `url` (a resolved path in an
  /// existing folder) may have changed, until the returned observation ends. Several callbacks
  /// may watch one file. A file named ``anyFile`` stands for every file of the folder.
  func watch(fileAt url: URL, onChange: @escaping @Sendable () -> Void) -> DefaultsObservation {
    let token = CallbackWatch()
    let id = ObjectIdentifier(token)
    lock.withLock {
      callbacks[url.path, default: [:]][id] = onChange
      addWatch(url, for: id)
    }
    return DefaultsObservation { [self] in
      lock.withLock {
        callbacks[url.path]?[id] = nil
        if callbacks[url.path]?.isEmpty == true { callbacks[url.path] = nil }
      }
      unwatch(url, for: ObjectIdentifier(token))
    }
  }

  /// Watches the folder of `url` for the watches of its file that could not start because the
  /// folder did not exist yet (a writer calls this after it created the folder); no effect on
  /// watches already running.
  func watchAgain(fileAt url: URL) {
    lock.withLock {
      for id in callbacks[url.path].map({ Array($0.keys) }) ?? [] { addWatch(url, for: id) }
    }
  }

  /// Watches the folder of `url` for events naming its file, for the watch `id` (called with
  /// `lock` held).
  private func addWatch(_ url: URL, for id: ObjectIdentifier) {
    let folder = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    guard source != nil, folders[folder]?.files[name]?.contains(id) != true else { return }
    if folders[folder] == nil {
      let descriptor = inotify_add_watch(inotify, folder, Self.mask)
      guard descriptor >= 0 else { return }
      folders[folder] = Folder(descriptor: descriptor)
      paths[descriptor] = folder
    }
    folders[folder]?.files[name, default: []].insert(id)
  }

  /// Stops reporting changes of the file at `url` (a resolved path) for the watch `id`.
  private func unwatch(_ url: URL, for id: ObjectIdentifier) {
    let folder = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    lock.withLock {
      guard var watched = folders[folder], var watchers = watched.files[name] else { return }
      watchers.remove(id)
      watched.files[name] = watchers.isEmpty ? nil : watchers
      if watched.files.isEmpty {
        inotify_rm_watch(inotify, watched.descriptor)
        paths[watched.descriptor] = nil
        folders[folder] = nil
      } else {
        folders[folder] = watched
      }
    }
  }

  /// Drains the inotify descriptor and calls the callbacks of the named files.
  private func readEvents() {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var touched = Set<String>()
    while true {
      let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      buffer.withUnsafeBytes { bytes in
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          let nameStart = offset + MemoryLayout<inotify_event>.size
          let nameBytes = bytes[nameStart..<nameStart + Int(event.len)].prefix { $0 != 0 }
          touched.formUnion(paths(for: event, name: String(decoding: nameBytes, as: UTF8.self)))
          offset = nameStart + Int(event.len)
        }
      }
    }
    for path in touched {
      for callback in lock.withLock({ callbacks[path].map { Array($0.values) } ?? [] }) {
        callback()
      }
    }
  }

  /// The file paths an event concerns: the named file, every watched file of the folder when the
  /// folder itself went away or events were lost.
  private func paths(for event: inotify_event, name: String) -> [String] {
    lock.withLock {
      if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
        return folders.flatMap { folder, watched in watched.files.keys.map { folder + "/" + $0 } }
      }
      guard let folder = paths[event.wd], let watched = folders[folder] else { return [] }
      if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
        if event.mask & UInt32(IN_IGNORED) != 0 {
          paths[event.wd] = nil
          folders[folder] = nil
        }
        return watched.files.keys.map { folder + "/" + $0 }
      }
      let file = watched.files[name] == nil ? [] : [folder + "/" + name]
      return file + (watched.files[Self.anyFile] == nil ? [] : [folder + "/" + Self.anyFile])
    }
  }

  /// The file name that stands for every file of its folder in ``watch(fileAt:onChange:)``.
  static let anyFile = "*"
}

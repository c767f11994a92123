import Foundation

/// An exclusive `flock(2)` lock on a lock file, held between ``init(url:guarding:)`` and
/// ``release()``.
///
/// The lock file sits beside the property-list file (`.<name>.lock`), so the lock keeps working
/// while the property-list file itself is replaced by `rename(2)`. It exists only while a writer
/// holds it: ``release()`` removes it, so no lock file is left beside users' own files. A writer
/// that waited for a lock file removed meanwhile sees that the path no longer names the file it
/// locked and starts again. The lock file is opened with `O_NOFOLLOW` (a symbolic link there is
/// refused, never followed) and created with mode 0600.
struct FileLock {
  private let descriptor: FileDescriptor
  private let path: String

  /// The lock file of the property-list file at `target` (symbolic links resolved):
  /// `.<name>.lock` beside it.
  static func url(guarding target: URL) -> URL {
    target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).lock")
  }

  /// Opens (creating it if needed) `url` and blocks until this process holds an exclusive lock.
  ///
  /// - Parameters:
  ///   - url: The lock file.
  ///   - file: The property-list file the lock guards, named in errors.
  /// - Throws: ``PropertyListError`` of kind `.unwritable` when the lock file cannot be opened or
  ///   locked, or is a symbolic link.
  init(url: URL, guarding file: URL) throws {
    path = url.path
    while true {
      let descriptor: FileDescriptor
      do {
        descriptor = try .open(path, [.readWrite, .create, .noFollow], creatingWith: 0o600)
      } catch {
        let reason =
          error == .tooManySymbolicLinkLevels
          ? "\(url.lastPathComponent) is a symbolic link" : "\(error)"
        throw PropertyListError(file: file, kind: .unwritable, reason: "lock file: " + reason)
      }
      do {
        try descriptor.lockExclusively()
      } catch {
        descriptor.close()
        throw PropertyListError(file: file, kind: .unwritable, reason: "lock: \(error)")
      }
      if let locked = try? descriptor.stat(),
        let current = try? Stat(path, followTargetSymlink: false), locked.isSameFile(as: current)
      {
        self.descriptor = descriptor
        return
      }
      // The holder before us removed this lock file: lock the one at the path now.
      descriptor.unlock()
      descriptor.close()
    }
  }

  /// Removes the lock file and releases the lock (explicitly, before closing: see
  /// ``FileDescriptor/unlock()``).
  func release() {
    FileSystem.removeFile(path)
    descriptor.unlock()
    descriptor.close()
  }
}

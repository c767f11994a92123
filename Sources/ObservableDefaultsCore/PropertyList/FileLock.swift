import Foundation

#if canImport(Glibc)
  import Glibc
#endif

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
  private let descriptor: Int32
  private let path: String

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
      let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
      guard descriptor >= 0 else {
        let reason = errno == ELOOP ? "\(url.lastPathComponent) is a symbolic link" : systemError()
        throw PropertyListError(file: file, kind: .unwritable, reason: "lock file: " + reason)
      }
      var result: Int32
      repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
      guard result == 0 else {
        let reason = systemError()
        close(descriptor)
        throw PropertyListError(file: file, kind: .unwritable, reason: "lock: " + reason)
      }
      var locked = stat()
      var current = stat()
      if fstat(descriptor, &locked) == 0, lstat(path, &current) == 0,
        locked.st_dev == current.st_dev, locked.st_ino == current.st_ino
      {
        self.descriptor = descriptor
        return
      }
      // The holder before us removed this lock file: lock the one at the path now.
      close(descriptor)
    }
  }

  /// Removes the lock file and releases the lock.
  func release() {
    unlink(path)
    close(descriptor)
  }
}

/// The message for the current `errno`.
func systemError() -> String {
  String(cString: strerror(errno))
}

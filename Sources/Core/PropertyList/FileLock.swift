import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive `flock(2)` lock on a lock file, held between ``acquire(_:)`` and ``release()``.
///
/// The lock file sits beside the property-list file and is never removed or replaced, so the lock
/// keeps working while the property-list file itself is replaced by `rename(2)`.
struct FileLock {
  private let descriptor: Int32

  /// Opens (creating it if needed) `url` and blocks until this process holds an exclusive lock.
  ///
  /// - Parameters:
  ///   - url: The lock file.
  ///   - file: The property-list file the lock guards, named in errors.
  /// - Throws: ``PropertyListError`` of kind `.unwritable` when the lock file cannot be opened or
  ///   locked.
  init(url: URL, guarding file: URL) throws {
    let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw PropertyListError(file: file, kind: .unwritable, reason: "lock file: " + systemError())
    }
    var result: Int32
    repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
    guard result == 0 else {
      let reason = systemError()
      close(descriptor)
      throw PropertyListError(file: file, kind: .unwritable, reason: "lock: " + reason)
    }
    self.descriptor = descriptor
  }

  /// Releases the lock and closes the lock file.
  func release() {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}

/// The message for the current `errno`.
func systemError() -> String {
  String(cString: strerror(errno))
}

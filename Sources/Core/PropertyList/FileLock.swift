import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive `flock(2)` lock on the folder that holds a property-list file, held from
/// ``init(folder:guarding:)`` to ``release()``.
///
/// The folder is never replaced, so the lock keeps working while the property-list file itself
/// is replaced by `rename(2)`; and nothing is left beside the user's files (a lock file would
/// be). Writers of files in the same folder take turns, each for the length of one write.
struct FileLock {
  private let descriptor: Int32

  /// Opens `folder` and blocks until this process holds an exclusive lock on it.
  ///
  /// - Parameters:
  ///   - folder: The folder of the property-list file.
  ///   - file: The property-list file the lock guards, named in errors.
  /// - Throws: ``PropertyListError`` of kind `.unwritable` when the folder cannot be opened or
  ///   locked.
  init(folder: URL, guarding file: URL) throws {
    let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw PropertyListError(file: file, kind: .unwritable, reason: "lock: " + systemError())
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

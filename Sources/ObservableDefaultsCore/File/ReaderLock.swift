import Foundation

/// A reader's shared `flock(2)` lock on a property-list file's lock file (``FileLock``), taken
/// only while a writer's lock file exists: a re-read waits, at most ``longestWait``, for a writer
/// that holds the lock — this package's, or another program that locks the file the same way
/// and rewrites it in place slowly — and reads while no such writer can start. A file being
/// rewritten under the lock is then never read half-done (observers were told of hundreds of
/// keys that never changed).
///
/// The lock file is never created or removed by a reader: with no lock file no writer holds
/// the lock, and nothing is locked.
struct ReaderLock {
  /// The longest wait for a writer: 5 s. A writer that holds the lock longer is read anyway,
  /// and what looks half-written is read again as ``PropertyListFile`` does for writers that
  /// take no lock.
  static let longestWait = Duration.seconds(5)

  private let descriptor: FileDescriptor?

  /// Waits until no writer holds the lock of the file at `target` (symbolic links resolved),
  /// or `deadline` has passed (by default ``longestWait`` from now), and holds a shared lock
  /// when there is a lock file.
  init(guarding target: URL, until deadline: ContinuousClock.Instant? = nil) {
    let path = FileLock.url(guarding: target).path
    let deadline = deadline ?? ContinuousClock.now + Self.longestWait
    while let descriptor = try? FileDescriptor.open(path, [.readOnly, .noFollow]) {
      if descriptor.tryLockShared() {
        // A writer that released its lock removed this file: look at the path again.
        if let locked = try? descriptor.stat(),
          let current = try? Stat(path, followTargetSymlink: false), locked.isSameFile(as: current)
        {
          self.descriptor = descriptor
          return
        }
      } else if ContinuousClock.now >= deadline {
        descriptor.close()
        break
      } else {
        SystemClock.sleep(microseconds: 2_000)
      }
      descriptor.unlock()
      descriptor.close()
    }
    descriptor = nil
  }

  /// Releases the lock (explicitly, before closing: a shared lock left held, by a descriptor a
  /// failed `close` left open or a forked child inherited, would make this process's next
  /// writer wait for itself; see ``FileDescriptor/unlock()``).
  func release() {
    descriptor?.unlock()
    descriptor?.close()
  }
}

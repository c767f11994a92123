import Foundation

/// Another program's write at the worst moment for a reader: after the file's identity was taken
/// and before its bytes are read. Tests schedule one for a file (``schedule(at:_:)``) to force
/// the race a writer that edits the text in place must survive (a flush may splice only into
/// bytes it verified, never into bytes vouched for by an identity taken before them).
///
/// Outside tests nothing is scheduled, and a read only checks that.
enum ReadInterruption {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var scheduled: [String: @Sendable () -> Void] = [:]

  /// Runs `write` once, in the next read of the file at `url` (symbolic links resolved), between
  /// taking its identity and reading its bytes.
  static func schedule(at url: URL, _ write: @escaping @Sendable () -> Void) {
    lock.withLock { scheduled[url.resolvingSymlinksInPath().path] = write }
  }

  /// Runs and forgets the write scheduled for the file at `url`, if any.
  static func run(reading url: URL) {
    let write: (@Sendable () -> Void)? = lock.withLock {
      guard !scheduled.isEmpty else { return nil }
      return scheduled.removeValue(forKey: url.resolvingSymlinksInPath().path)
    }
    write?()
  }
}

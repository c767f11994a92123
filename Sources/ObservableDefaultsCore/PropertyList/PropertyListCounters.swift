import Foundation

/// How often this process parsed and wrote each property-list file: what the tests count to show
/// that a flush of an unchanged file, or a change notice for this process's own write, reads
/// nothing.
enum PropertyListCounters {
  /// The counts of one file.
  struct Counts: Equatable {
    /// Files read and parsed (``PropertyListFile/readSnapshot()``).
    var parses = 0
    /// Files written (each an atomic replacement).
    var writes = 0
    /// Reads of the file's bytes that confirmed a version by its hash (``FileVersion``).
    var confirmations = 0
    /// Pauses before reading again a file that looked half-written
    /// (``PropertyListFile/retryingHalfWritten(suspecting:_:)``).
    var halfWrittenRetries = 0
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var counts: [String: Counts] = [:]

  /// The counts of the file at `url` (symbolic links resolved) so far.
  static func counts(for url: URL) -> Counts {
    lock.withLock { counts[url.resolvingSymlinksInPath().path] ?? Counts() }
  }

  /// Adds one to a count of the file at `path` (a resolved path).
  static func count(_ field: WritableKeyPath<Counts, Int>, path: String) {
    lock.withLock { counts[path, default: Counts()][keyPath: field] += 1 }
  }
}

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
    /// Reads of the file again after it was read while its times were recent, to see that no
    /// write was under way meanwhile (``PropertyListFile/readDataNoticingWrites()``).
    var tornReadChecks = 0
    /// Top-level values encoded by writes (every key when a write encodes the whole document).
    var keysEncoded = 0
    /// Bytes of objects a binary write copied from the file without decoding them
    /// (``BinaryPropertyListSplice``).
    var bytesCopied = 0
    /// Top-level values a re-read after a change decoded (every key when it parsed the file
    /// whole; only the entries that differ when it compared them, see ``PropertyListEntries``).
    var keysReread = 0
    /// Top-level values a one-shot write (``PropertyListFile/write(_:)``) or a one-key read
    /// (``PropertyListFile/read(key:)``) decoded from the file: the changed keys' values before,
    /// the key read; every other key is only checked.
    var valuesDecoded = 0
    /// Times the C library's heap was trimmed after a large re-read or flush of the file
    /// (``FreedMemory``).
    var heapTrims = 0
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var counts: [String: Counts] = [:]

  /// The counts of the file at `url` (symbolic links resolved) so far.
  static func counts(for url: URL) -> Counts {
    lock.withLock { counts[url.resolvingSymlinksInPath().path] ?? Counts() }
  }

  /// Adds `amount` (one unless given) to a count of the file at `path` (a resolved path).
  static func count(_ field: WritableKeyPath<Counts, Int>, by amount: Int = 1, path: String) {
    lock.withLock { counts[path, default: Counts()][keyPath: field] += amount }
  }
}

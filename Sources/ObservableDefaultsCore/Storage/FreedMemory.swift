/// Gives the memory freed by replacing a large parsed document, or by writing a large file, back
/// to the system.
///
/// glibc keeps freed memory in the malloc arena of the thread that allocated it, and a suite's
/// re-reads run on whichever Dispatch worker thread its queue gets: each re-read of a large
/// suite can leave a document's worth of free chunks in another arena, so the resident size
/// grows with the number of arenas (up to 8 per core) although nothing is leaked.
/// `malloc_trim(0)` returns the free pages of every arena (``SystemMemory/returnFreePages()``).
enum FreedMemory {
  /// The number of keys from which a re-read is large enough to trim after (a trim walks every
  /// arena: about a millisecond, small beside parsing 10,000 keys).
  static let largeDocument = 10_000

  /// The size of a file from which a flush is large enough to trim after (about a millisecond,
  /// small beside writing and `fsync`ing a megabyte).
  static let largeFile = 1 << 20

  /// Trims the heap when a document of `keys` keys of the file at `path` was just replaced.
  static func release(afterReplacingDocumentOf keys: Int, path: String) {
    if keys >= largeDocument { trim(path: path) }
  }

  /// Trims the heap when a flush just wrote `bytes` bytes to the file at `path`.
  ///
  /// A writer of a large value frees the value it replaced and the buffers of its encoding at
  /// each flush, in the middle of a heap, where `free` gives nothing back. A writer of a 5 MB
  /// string grew by about 7 KB per round over 1,000 rounds on a quiet machine; glibc's bytes in
  /// use (`mallinfo2`) stayed at 10.2 MB over those rounds (plus about 190 B per round: the
  /// continuations Dispatch caches per thread, at most 1,024 each) while the free bytes of its
  /// heaps grew from 24.7 to 31.8 MB.
  static func release(afterWritingFileOf bytes: Int, path: String) {
    if bytes >= largeFile { trim(path: path) }
  }

  /// Trims the heap and counts it for the file at `path` (``PropertyListCounters``).
  private static func trim(path: String) {
    SystemMemory.returnFreePages()
    PropertyListCounters.count(\.heapTrims, path: path)
  }
}

/// Gives the memory freed by replacing a large parsed document back to the system.
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

  /// Trims the heap when a document of `keys` keys was just replaced.
  static func release(afterReplacingDocumentOf keys: Int) {
    if keys >= largeDocument { SystemMemory.returnFreePages() }
  }
}

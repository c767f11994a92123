import Foundation

extension PropertyListFile {
  /// The pauses before reading a file again that looked half-written: 20 ms, 100 ms, then
  /// 400 ms (another program's second command may take that long to start on a loaded machine).
  ///
  /// Programs that write a file in place (shell redirections, editors without atomic save,
  /// `truncate` then `write`) leave it empty or cut short for a moment, and one that deletes
  /// the file before creating it again leaves no file; a reader that takes that moment for the
  /// file's contents would tell observers every key was removed, or refuse writes as if the file
  /// were corrupt.
  ///
  /// A task-local value, so that a tool that hands the write path thousands of malformed files
  /// on purpose (the fuzzer's read mode) can take them at once: with the pauses, each refused
  /// file cost a writer half a second.
  @TaskLocal package static var halfWrittenPauses: [UInt32] = [20_000, 100_000, 400_000]

  /// `read`'s result, read again after each of ``halfWrittenPauses`` while `read` throws a
  /// `.malformed` ``PropertyListError`` or `isSuspect` holds for its result; the last attempt's
  /// result (or error) stands, so a file that really is empty, missing or malformed is taken as
  /// such about half a second later.
  ///
  /// - Throws: What the last attempt throws; any other error at once.
  func retryingHalfWritten<Result>(
    suspecting isSuspect: (Result) -> Bool = { _ in false }, _ read: () throws -> Result
  ) throws -> Result {
    for pause in Self.halfWrittenPauses {
      do {
        let result = try read()
        if !isSuspect(result) { return result }
      } catch let error as PropertyListError where error.kind == .malformed {
        // Read again below.
      }
      PropertyListCounters.count(\.halfWrittenRetries, path: url.resolvingSymlinksInPath().path)
      SystemClock.sleep(microseconds: pause)
    }
    return try read()
  }

  /// `read`'s result as ``retryingHalfWritten(suspecting:_:)`` gives it, each attempt made while
  /// no writer holds the file's lock (``ReaderLock``, waited for at most 5 s in all: a program
  /// that keeps the lock for good delays a read by that, not by 5 s an attempt): for a
  /// reader, whose first look or a retry would otherwise read the file while a program that
  /// locks it rewrites it in place (a suite opened then started empty; a re-read told observers
  /// that every key was removed, then added back, as the pauses alone end sooner than a slow
  /// writer; a one-shot `read` said a key did not exist). Never for a writer: it holds the lock
  /// itself.
  ///
  /// - Parameters:
  ///   - deadline: When to stop waiting for writers: nil for 5 s from now
  ///     (``ReaderLock/longestWait``), or the deadline of a lock the caller already waited for.
  ///   - isSuspect: Whether a result looks half-written, as for `retryingHalfWritten`.
  ///   - read: Reads the file.
  /// - Throws: What the last attempt throws; any other error at once.
  package func readingAfterWriters<Result>(
    waitingUntil deadline: ContinuousClock.Instant? = nil,
    suspecting isSuspect: (Result) -> Bool = { _ in false }, _ read: () throws -> Result
  ) throws -> Result {
    let deadline = deadline ?? .now + ReaderLock.longestWait
    return try retryingHalfWritten(suspecting: isSuspect) {
      let writers = ReaderLock(guarding: url, until: deadline)
      defer { writers.release() }
      return try read()
    }
  }

  /// ``readSnapshot()`` for a writer about to replace the file: a file that does not parse, that
  /// was being written while it was read (``readDataNoticingWrites()``), or that is empty is read again
  /// (``retryingHalfWritten(suspecting:_:)``) before the write goes ahead, so no other program's
  /// write in progress is replaced by this one; a missing file is looked for once more at once
  /// (a program that deletes the file before creating it again leaves no file for a moment), not
  /// after the pauses: every new suite's first write meets a missing file.
  func readSnapshotBeforeWriting() throws -> PropertyListSnapshot? {
    let isEmpty = { (snapshot: PropertyListSnapshot?) in
      snapshot?.version?.identity.isEmpty ?? false
    }
    if let snapshot = try retryingHalfWritten(suspecting: isEmpty, { try readSnapshot() }) {
      return snapshot
    }
    return try readSnapshot()
  }

  /// The file's bytes, identity and hash as ``readData()`` gives them, and whether the file was
  /// being written while it was read (``FileContents/readNoticingWrites(_:)``): a reader would
  /// tell observers of changes nobody made, a writer would keep a mix of two versions for good
  /// (storage-torture seeds 4299, 5002 and 5003: a long string shorter by the length another
  /// value grew, a data value of 8 other bytes). Counts the second reads (`tornReadChecks`).
  /// The cost: one more read and comparison of a file whose times are less than
  /// ``FileIdentity/settlingSeconds`` old.
  func readDataNoticingWrites() throws -> (
    data: Data, identity: FileIdentity, hash: UInt64, wasWritten: Bool
  )? {
    guard let read = try FileContents.readNoticingWrites(url) else { return nil }
    if read.compared {
      PropertyListCounters.count(\.tornReadChecks, path: url.resolvingSymlinksInPath().path)
    }
    return (read.data, read.identity, read.hash, read.changed)
  }
}

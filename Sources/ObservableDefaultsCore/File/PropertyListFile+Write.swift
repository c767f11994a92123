import Foundation

/// The write path of a property-list file: three entry points (``apply(_:known:)`` for a writer
/// that applies changes by exact key, ``update(known:_:)`` for one whose changes depend on what
/// is on disk, ``write(_:)`` for a process that writes and keeps nothing of the file) and the
/// one method under them that locks, confirms or reads, encodes and replaces the file.
extension PropertyListFile {
  /// Applies `changes` to the file, keeping every other key as it is on disk now.
  ///
  /// Takes an exclusive `flock` on a lock file beside the file (`.<name>.lock`, removed again
  /// when done; a lock file that is a symbolic link is never followed), removes temporary files
  /// killed writers left, re-reads the file, applies only these changes, writes a temporary file
  /// (`.<name>.<random>.tmp`) in the same folder in the file's format (binary stays binary; XML
  /// for a new file or any other format), `fsync`s it and renames it over the file. Missing
  /// folders are created with mode 0700 and a new file gets mode 0600; an existing file keeps its
  /// mode, and one its writer may not write (read-only for a user other than root) is refused, as
  /// Foundation does. A symbolic link is followed, also one whose target does not exist yet: its
  /// target is written, the link stays.
  /// When nothing changes, the file is not rewritten.
  ///
  /// The write of a suite file of the preferences folder is appended to the suite's change
  /// history afterwards (`$XDG_STATE_HOME/ObservableDefaults/history/<suite>.log`: each changed
  /// key, its values before and after, the time and this program's name and process id; bounded
  /// to 256 KiB, off with `OBSERVABLE_DEFAULTS_HISTORY=0`).
  /// A history that cannot be written never fails the write.
  ///
  /// - Parameter changes: Key → change. Values of `.set` must be property-list values.
  /// - Returns: The document now on disk.
  /// - Throws: ``PropertyListError``: `.malformed` when the existing file does not parse (its
  ///   bytes are left untouched), `.unreadable` when it cannot be read (or is a folder, a device,
  ///   a symbolic link loop), `.unwritable` when it is read-only, or the folder, the lock, the
  ///   temporary file, serialization or the rename fails (the file is then unchanged); a write
  ///   that would make the file larger than a reader reads (256 MiB) is refused the same way,
  ///   as `.invalidValue(key:)` when it changes one key; `.invalidValue(key:)` for a key or
  ///   string or date an XML file cannot hold (`XMLHoldableValues`; a binary file holds any).
  public func apply(_ changes: [PropertyListKey: PropertyListChange]) throws
    -> PropertyListDocument
  {
    var known: PropertyListSnapshot?
    _ = try apply(changes, known: &known)
    return known?.document ?? PropertyListDocument()
  }

  /// ``apply(_:)`` with `String` keys (distinct ones: a `[String: PropertyListChange]` cannot
  /// hold two keys that differ only in Unicode normalization).
  ///
  /// - Throws: The errors of ``apply(_:)``.
  public func apply(_ changes: [String: PropertyListChange]) throws -> PropertyListDocument {
    try apply([PropertyListKey: PropertyListChange](exactKeys: changes))
  }

  /// ``apply(_:)`` for a writer that keeps the version of the file (a suite's storage).
  ///
  /// - Parameters:
  ///   - known: The version of the file this process last read or wrote; used instead of
  ///     reading the file when the file is still that version, and replaced by the version now
  ///     on disk (nil after a failure).
  ///   - wholeValues: For a writer that keeps the file's values itself: `known`'s document then
  ///     holds the file's value of each changed key only (a key absent from the file has none),
  ///     and this gives every value of the file with `changes` applied, for a write that encodes
  ///     the whole document. Not called when the file is read (it was not `known`'s version).
  /// - Returns: Whether the file was read (another writer changed it since `known`).
  /// - Throws: The errors of ``apply(_:)``.
  func apply(
    _ changes: [PropertyListKey: PropertyListChange], known: inout PropertyListSnapshot?,
    wholeValues: (() -> [PropertyListKey: Any])? = nil
  ) throws -> Bool {
    let history = ChangeHistory.ofSuiteFile(at: url)
    let recordsHistory = history != nil
    var writes: [ChangeHistory.Write] = []
    let outcome = try replace(known: &known, applying: changes, wholeValues: wholeValues) {
      document in
      for (key, change) in changes {
        let old = document.values[key]
        switch change {
        case .set(let value) where !propertyListValuesEqual(old, value):
          writes.append(ChangeHistory.Write(key: key, old: old, new: recordsHistory ? value : nil))
        case .remove where old != nil:
          writes.append(ChangeHistory.Write(key: key, old: old, new: nil))
        default: continue
        }
        // Without a history one changed key is enough to know the file is written.
        if !recordsHistory { break }
      }
      document.apply(changes)
      return !writes.isEmpty
    }
    if let (history, suite) = history { history.record(writes, suite: suite) }
    return outcome.wasRead
  }

  /// Locks the file, re-reads it and lets `body` change the document read under the lock; writes
  /// the result (as ``apply(_:)`` does) only when `body` returns true.
  ///
  /// For writers whose changes depend on what is on disk now (the cloud container merges by
  /// timestamp, a migration plans from the values on disk, an editor saves unless another
  /// writer changed the same keys). `body` may set the document's format (`.binary` stays
  /// binary, anything else is written as XML).
  ///
  /// - Parameters:
  ///   - known: The version of the file this process last read or wrote: when the file on disk
  ///     is still that version (same ``FileIdentity`` and, until confirmed, the same bytes), its
  ///     document is used and the file is not read. Replaced by the version on disk afterwards
  ///     (nil after a failure). A writer that keeps nothing passes a nil it drops.
  ///   - body: Changes the document; returns whether it changed anything.
  /// - Returns: Whether the file was written.
  /// - Throws: The errors of ``apply(_:)``, and what `body` throws (the file is then unchanged).
  @discardableResult
  package func update(
    known: inout PropertyListSnapshot?, _ body: (inout PropertyListDocument) throws -> Bool
  ) throws -> Bool {
    try replace(known: &known, body).wasWritten
  }

  /// The one write: locks the file, takes the version on disk (``takeVersion(known:onDisk:readingText:)``),
  /// lets `body` change its document, and when it did, encodes the document (only `changes`,
  /// when `body` applied exactly these and the format's write state allows) and replaces the
  /// file atomically (``AtomicFileWriter``).
  ///
  /// - Parameters:
  ///   - changes: The changes `body` applies, when it applies exactly these.
  ///   - wholeValues: As ``apply(_:known:wholeValues:)`` says.
  /// - Throws: The errors of ``apply(_:)``, and what `body` throws (the file is then unchanged).
  private func replace(
    known: inout PropertyListSnapshot?,
    applying changes: [PropertyListKey: PropertyListChange]? = nil,
    wholeValues: (() -> [PropertyListKey: Any])? = nil,
    _ body: (inout PropertyListDocument) throws -> Bool
  ) throws -> (wasRead: Bool, wasWritten: Bool) {
    let (lock, target) = try lockTarget(dropping: &known)
    defer { lock.release() }
    var taken = try takeVersion(known: &known, onDisk: target, readingText: changes != nil)
    if taken.version != nil {
      do {
        try checkWritable(target)
      } catch {
        known = nil
        throw error
      }
    }
    guard try body(&taken.document) else {
      known = PropertyListSnapshot(
        document: taken.document, version: taken.version, state: taken.state.kept)
      return (taken.wasRead, false)
    }
    let written = changes.map(Self.setValues) ?? taken.document.values
    try PropertyListLimits.preferences.checkValues(of: written, writingTo: url)
    if taken.document.format != .binary {
      taken.document.format = .xml
      try XMLHoldableValues.check(written, writingTo: url)
    }
    let whole = taken.wasRead ? nil : wholeValues
    let (pieces, state, encodedKeys) = try fileErrorIfFailing {
      try encode(taken, changes: changes, wholeValues: whole)
    }
    let size = pieces.reduce(0) { $0 + $1.count }
    let keys = changes.map { $0.keys.map(\.string) }
    try FileContents.checkReadable(size: size, of: url, changing: keys)
    if case .binary(let draft?, _) = state {
      try draft.checkReadable(size: size, of: url, changing: keys)
    }
    // Made from no file: it must not replace one (a read that took the file for absent would
    // otherwise drop every value in it).
    let (identity, hash) = try AtomicFileWriter(target: target, reportingAs: url)
      .writeHashed(pieces, creating: taken.version == nil)
    PropertyListCounters.count(\.writes, path: target.path)
    PropertyListCounters.count(\.keysEncoded, by: encodedKeys, path: target.path)
    known = PropertyListSnapshot(
      document: taken.document,
      version: identity.map { FileVersion(identity: $0, contentHash: hash) },
      state: state)
    return (taken.wasRead, true)
  }

  /// The values `changes` sets, by key.
  static func setValues(_ changes: [PropertyListKey: PropertyListChange]) -> [PropertyListKey: Any]
  {
    changes.compactMapValues { if case .set(let value) = $0 { value } else { nil } }
  }

  /// The exclusive lock of the file and the file it guards (the target of a symbolic link),
  /// with missing folders created (unless ``makesMissingFolders`` is false); `known` is dropped
  /// when this fails.
  ///
  /// - Throws: ``PropertyListError`` of kind `.unwritable` (also for a missing folder that is
  ///   not made) or `.unreadable`.
  func lockTarget(dropping known: inout PropertyListSnapshot?) throws -> (FileLock, URL) {
    do {
      let target = try SymbolicLinks.target(of: url)
      let folder = target.deletingLastPathComponent()
      if makesMissingFolders {
        try PrivateFolder.create(folder, for: url)
      } else if (try? Stat(folder.path))?.type != .directory {
        throw PropertyListError(
          file: url, kind: .unwritable,
          reason: "its folder \(folder.path) does not exist (it was removed); it is not made again")
      }
      let lock = try FileLock(url: FileLock.url(guarding: target), guarding: url)
      TemporaryFileNames.removeStale(for: target)
      return (lock, target)
    } catch {
      known = nil
      throw error
    }
  }

  /// Throws unless this process may write the file at `target` (one read-only for a user other
  /// than root is refused, as Foundation does).
  ///
  /// - Throws: ``PropertyListError`` of kind `.unwritable`.
  func checkWritable(_ target: URL) throws {
    do {
      try FileSystem.checkWritable(target.path)
    } catch {
      throw PropertyListError(
        file: url, kind: .unwritable, reason: "the file is read-only (\(error))")
    }
  }

  /// `body`'s result, its errors as ``PropertyListError``s: a refusal of the file's bytes is
  /// `.malformed`, an encoder's failure (or any other error) `.unwritable`.
  func fileErrorIfFailing<Result>(_ body: () throws -> Result) throws -> Result {
    do {
      return try body()
    } catch let rejection as PropertyListRejection {
      throw PropertyListError(file: url, kind: .malformed, reason: rejection.reason)
    } catch let error as PropertyListError {
      throw error
    } catch let failure as PropertyListEncodingFailure {
      throw PropertyListError(file: url, kind: .unwritable, reason: failure.reason)
    } catch {
      throw PropertyListError(file: url, kind: .unwritable, reason: describe(error))
    }
  }

  /// The bytes of `taken`'s document after `changes` (when the document was changed by exactly
  /// these), in pieces to write one after the other (a binary file's large data values are
  /// pieces of their own, ``BinaryPropertyListDraft/pieces()``), the write state of the new
  /// version, and how many top-level values were encoded.
  ///
  /// A binary document is written from its draft with `changes` added, when there is one, else
  /// from a new draft. An XML one is written by an edit of the text on disk when it is still
  /// the version taken (the file is locked; a writer that does not lock could still have
  /// changed it): the text read under the lock by ``takeVersion(known:onDisk:readingText:)``
  /// when the version was known before, else read here as ``textIfStill(_:)`` reads it; edited
  /// at the places of its entries, when they are known. Else the document is encoded whole (its
  /// values from `wholeValues` when the document holds the changed keys only).
  private func encode(
    _ taken: TakenVersion, changes: [PropertyListKey: PropertyListChange]?,
    wholeValues: (() -> [PropertyListKey: Any])?
  ) throws -> ([Data], PropertyListWriteState, encodedKeys: Int) {
    var document = taken.document
    switch taken.state {
    case .xml(let text, let entries):
      if let changes, document.format != .binary, var version = taken.version,
        let text = text ?? textIfStill(&version),
        let edited = try XMLPropertyListEdit.applying(changes, to: text, known: entries)
      {
        return ([edited.text], .xml(text: nil, entries: edited.entries), changes.count)
      }
    case .binary(var draft?, _):
      if let changes, document.format == .binary, try draft.apply(changes) {
        return (try draft.pieces(), .binary(draft: draft, entries: draft.entries()), changes.count)
      }
    case .binary(nil, _):
      break
    }
    if let wholeValues { document.values = wholeValues() }
    guard document.format == .binary else {
      let data = try PropertyListEncoding.data(of: document)
      return (
        [data], .xml(text: nil, entries: XMLPropertyListEntries.entries(of: data)),
        document.values.count
      )
    }
    let made = try BinaryPropertyListDraft(values: document.values)
    return (
      try made.pieces(), .binary(draft: made, entries: made.entries()), document.values.count
    )
  }

  /// The version of the file a write replaces, taken out of what the writer kept.
  private struct TakenVersion {
    /// The document on disk now (the writer's `body` changes it).
    var document: PropertyListDocument
    /// nil when there is no file.
    var version: FileVersion?
    /// What the writer keeps of the version, by format.
    var state: PropertyListWriteState
    /// Whether the file was read (it was not the version the writer knew).
    var wasRead: Bool
  }

  /// The version on disk now, with the file locked: `known`'s (its document and write state)
  /// when the file is still that version (``isStill(_:)``: never metadata alone, which can miss
  /// another writer's change), else read. `known` is emptied first so that the document and
  /// draft returned are the only references to their storage: changing them then mutates in
  /// place instead of copying every key.
  ///
  /// - Parameter readingText: Whether the caller edits the text of an XML file: the text of an
  ///   XML document that is still `known`'s version is then kept in the state, from the one
  ///   read that found it still (``textIfStill(_:)``), so it is not read and hashed again.
  private func takeVersion(
    known: inout PropertyListSnapshot?, onDisk target: URL, readingText: Bool
  ) throws -> TakenVersion {
    var cached: PropertyListSnapshot?
    swap(&cached, &known)
    let file = PropertyListFile(url: target)
    guard var taken = cached, var version = taken.version else {
      cached = nil
      return try readVersion()
    }
    cached = nil
    var state = taken.state
    switch state {
    case .xml(_, let entries) where readingText:
      guard let text = file.textIfStill(&version) else { return try readVersion() }
      state = .xml(text: text, entries: entries)
    default:
      guard file.isStill(&version) else { return try readVersion() }
    }
    var document = PropertyListDocument()
    swap(&document, &taken.document)
    return TakenVersion(document: document, version: version, state: state, wasRead: false)
  }

  /// The version on disk now, read under the lock.
  private func readVersion() throws -> TakenVersion {
    guard let snapshot = try readSnapshotBeforeWriting() else {
      return TakenVersion(
        document: PropertyListDocument(), version: nil, state: .xml(text: nil, entries: nil),
        wasRead: true)
    }
    return TakenVersion(
      document: snapshot.document, version: snapshot.version, state: snapshot.state,
      wasRead: true)
  }
}

extension PropertyListWriteState {
  /// This state as a process keeps it between writes (an XML text read under the lock is not).
  var kept: Self {
    if case .xml(_?, let entries) = self { .xml(text: nil, entries: entries) } else { self }
  }
}

public import Foundation

/// One property-list file on disk (XML or binary), read and written safely by several processes.
///
/// Reading never changes the file. `apply(_:)` is the only way this package writes: it locks,
/// re-reads, changes only the given keys and replaces the file atomically, so keys written by
/// other processes in the meantime are kept, and a file that does not parse is never replaced.
public struct PropertyListFile: Sendable {
  /// The file's location (it need not exist yet).
  public let url: URL

  /// Creates a handle for the property-list file at `url`; nothing is read or created.
  ///
  /// - Parameter url: A `file:` URL.
  public init(url: URL) {
    self.url = url
  }

  /// Reads and parses the file.
  ///
  /// An empty (zero-byte) file reads as an empty XML document.
  ///
  /// - Returns: The document, or nil when the file does not exist.
  /// - Throws: ``PropertyListError`` of kind `.unreadable` when the file cannot be read, `.malformed`
  ///   when it does not parse or its root is not a dictionary.
  public func read() throws -> PropertyListDocument? {
    try readSnapshot()?.document
  }

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
  ///   string an XML file cannot hold (`XMLCharacters`; a binary file holds any string).
  public func apply(_ changes: [PropertyListKey: PropertyListChange]) throws
    -> PropertyListDocument
  {
    try applySnapshot(changes).document
  }

  /// ``apply(_:)`` with `String` keys (distinct ones: a `[String: PropertyListChange]` cannot
  /// hold two keys that differ only in Unicode normalization).
  ///
  /// - Throws: The errors of ``apply(_:)``.
  public func apply(_ changes: [String: PropertyListChange]) throws -> PropertyListDocument {
    try apply([PropertyListKey: PropertyListChange](exactKeys: changes))
  }

  /// The file's bytes and the identity of the version they were read from (taken from the open
  /// descriptor), or nil when it does not exist.
  ///
  /// - Throws: ``PropertyListError`` of kind `.unreadable`.
  func readData() throws -> (data: Data, identity: FileIdentity)? {
    try FileContents.read(url)
  }

  /// Reads and parses the file, keeping the identity of the version parsed (and counting the
  /// parse, see ``PropertyListCounters``).
  package func readSnapshot() throws -> PropertyListSnapshot? {
    guard let (data, identity) = try readData() else { return nil }
    PropertyListCounters.count(\.parses, path: url.resolvingSymlinksInPath().path)
    // Hashed first: the parse gives the pages of these bytes (this read's own) back as it goes.
    let version = FileVersion(identity: identity, data: data)
    return PropertyListSnapshot(
      document: try parse(data, comparingTo: nil, releasingPages: true).document,
      version: version)
  }

  /// Reads and parses the file again after a change.
  ///
  /// When the entries of `base` (the version read or written before) are known, the two are
  /// compared entry by entry and only the entries of the top dictionary that differ are decoded
  /// and changed in `base`'s document (see ``BinaryPropertyListScanner/changes(of:since:previous:)``,
  /// which checks the file in the same pass, and, for an XML file in the plain form writers produce,
  /// ``XMLPropertyListEntries/changes(of:since:previous:)``). Otherwise the file is parsed
  /// whole, comparing it with `previous` (the values this process holds): in a binary file,
  /// values equal to `previous`'s are `previous`'s own, and unchanged strings are compared with
  /// the file's bytes instead of being decoded again.
  ///
  /// - Parameters:
  ///   - previous: The values this process holds.
  ///   - base: The version before, taken (its document is changed in place).
  /// - Returns: The version read (nil when the file does not exist), and the keys whose value
  ///   was added, changed or removed since `base` (or, when the file was parsed whole, since
  ///   `previous`).
  /// - Throws: ``PropertyListError`` as ``read()`` does.
  func rereadSnapshot(
    comparingTo previous: [PropertyListKey: Any], since base: inout PropertyListSnapshot?
  ) throws -> (snapshot: PropertyListSnapshot?, changedKeys: Set<PropertyListKey>) {
    var taken: PropertyListSnapshot?
    swap(&taken, &base)
    guard let (data, identity) = try readData() else { return (nil, Set(previous.keys)) }
    PropertyListCounters.count(\.parses, path: url.resolvingSymlinksInPath().path)
    // Moved out of the optional, not copied (`if var taken`): a second reference to its values
    // made the first change below copy the whole dictionary at each re-read.
    if var taken = taken.take(), let old = taken.entries {
      let isBinary = data.starts(with: "bplist".utf8)
      let changes = try malformedIfRejected { () throws(PropertyListRejection) in
        isBinary
          ? try BinaryPropertyListScanner.changes(
            of: data, since: old, previous: taken.document.values)
          : try XMLPropertyListEntries.changes(
            of: data, since: old, previous: taken.document.values)
      }
      if let changes {
        var changedKeys = Set(changes.removed)
        for key in changes.removed { taken.document.values[key] = nil }
        for (key, value) in changes.set
        where !propertyListValuesEqual(taken.document.values[key], value) {
          changedKeys.insert(key)
          taken.document.values[key] = value
        }
        taken.version = FileVersion(identity: identity, data: data)
        taken.entries = changes.entries
        taken.draft = nil
        return (taken, changedKeys)
      }
    }
    let (document, changedKeys, entries) = try parse(data, comparingTo: previous)
    let snapshot = PropertyListSnapshot(
      document: document, version: FileVersion(identity: identity, data: data), entries: entries)
    return (snapshot, changedKeys ?? [])
  }

  /// Re-reads the file after a change notice unless it is still the version of `known` (then
  /// nothing is parsed: ``isStill(_:)``), as ``rereadSnapshot(comparingTo:since:)`` does.
  ///
  /// - Parameters:
  ///   - previous: The values this process holds.
  ///   - known: The version last read or written; replaced by the version on disk (nil when the
  ///     file is gone, or after a failure).
  /// - Returns: nil when the file is still `known`'s version; else the keys whose value was
  ///   added, changed or removed.
  /// - Throws: ``PropertyListError`` as ``read()`` does.
  package func rereadIfChanged(
    comparingTo previous: [PropertyListKey: Any], since known: inout PropertyListSnapshot?
  ) throws -> Set<PropertyListKey>? {
    if var version = known?.version, isStill(&version) {
      known?.version = version
      return nil
    }
    let (snapshot, changedKeys) = try rereadSnapshot(comparingTo: previous, since: &known)
    known = snapshot
    return changedKeys
  }

  /// `body`'s result; its ``PropertyListRejection`` becomes a `.malformed` ``PropertyListError``.
  private func malformedIfRejected<Result>(
    _ body: () throws(PropertyListRejection) -> Result
  ) throws -> Result {
    do {
      return try body()
    } catch {
      throw PropertyListError(file: url, kind: .malformed, reason: error.reason)
    }
  }

  /// Parses `data` as this file's contents.
  ///
  /// - Throws: ``PropertyListError`` of kind `.malformed`.
  func parse(_ data: Data) throws -> PropertyListDocument {
    try parse(data, comparingTo: nil).document
  }

  /// Parses `data` as this file's contents: the one place where bytes become values. With
  /// `previous`, also returns the keys whose value differs from it and, for a binary file, its
  /// entries (see ``rereadSnapshot(comparingTo:since:)``). With `releasingPages`, the bytes are
  /// no one else's and a binary file's pages are given back as they are read (see
  /// ``BinaryPropertyListScanner/value(releasingPagesOf:)``). Each format is checked by the
  /// reader that reads it, in the same pass.
  ///
  /// - Throws: ``PropertyListError`` of kind `.malformed`.
  private func parse(
    _ data: Data, comparingTo previous: [PropertyListKey: Any]?, releasingPages: Bool = false
  ) throws -> (
    document: PropertyListDocument, changedKeys: Set<PropertyListKey>?,
    entries: PropertyListEntries?
  ) {
    if data.isEmpty { return (PropertyListDocument(), previous.map { Set($0.keys) }, nil) }
    // Each format is checked by its reader as it is read (binary: ``BinaryPropertyListScanner``;
    // text: ``PropertyListText``).
    let isBinary = data.starts(with: "bplist".utf8)
    var format = PropertyListSerialization.PropertyListFormat.xml
    let root: Any
    let values: [PropertyListKey: Any]?
    var changedKeys: Set<PropertyListKey>?
    var entries: PropertyListEntries?
    do {
      if isBinary {
        // Our scanner: checked canonical values in one pass (Foundation's parse and the
        // normalization of its values, then a separate validation walk, were the cost of every
        // open and every re-read after a change).
        format = .binary
        if let previous {
          (root, changedKeys, entries) = try BinaryPropertyListScanner.value(
            of: data, comparingTo: previous)
        } else if releasingPages {
          root = try BinaryPropertyListScanner.value(releasingPagesOf: data).root
        } else {
          root = try BinaryPropertyListScanner.root(of: data)
        }
        values = root as? [PropertyListKey: Any]
      } else {
        // Our readers, keys exact: Foundation's parser was 6.8 s and 684 MB for a
        // 1,000,000-key XML suite, and its `String`-keyed dictionaries merge keys that differ
        // only in Unicode normalization.
        let reading = try PropertyListText.read(data, indexing: previous != nil)
        (root, format, entries) = (reading.root, reading.format, reading.entries)
        values = root as? [PropertyListKey: Any]
      }
    } catch {
      throw PropertyListError(file: url, kind: .malformed, reason: error.reason)
    }
    guard let values else {
      let reason = "the root is a \(type(of: root)), not a dictionary with string keys"
      throw PropertyListError(file: url, kind: .malformed, reason: reason)
    }
    if let previous, changedKeys == nil {
      changedKeys = PropertyListDiff.changedKeys(from: previous, to: values)
    }
    return (PropertyListDocument(values: values, format: format), changedKeys, entries)
  }

  /// Parses `data` as if it were this file's contents, with every check of ``read()``: for bytes
  /// that come from elsewhere (standard input, a download) and are named by this file in errors.
  ///
  /// - Parameter data: The bytes of a property list (XML, binary or OpenStep text).
  /// - Returns: The document (empty for empty bytes).
  /// - Throws: ``PropertyListError`` of kind `.malformed`.
  public func document(from data: Data) throws -> PropertyListDocument {
    try parse(data)
  }

  /// ``apply(_:)``, also returning the identity of the file now on disk.
  ///
  /// - Parameter known: The version of the file this process last read or wrote; used instead of
  ///   reading the file when the file is still that version, and replaced by the version now on
  ///   disk (nil after a failure).
  /// - Returns: Whether the file was read (another writer changed it since `known`).
  func apply(_ changes: [PropertyListKey: PropertyListChange], known: inout PropertyListSnapshot?)
    throws
    -> Bool
  {
    let history = ChangeHistory.ofSuiteFile(at: url)
    let recordsHistory = history != nil
    var writes: [ChangeHistory.Write] = []
    let wasRead = try update(known: &known, applying: changes) { document in
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
    return wasRead
  }

  /// ``apply(_:)``, returning the version now on disk.
  func applySnapshot(_ changes: [PropertyListKey: PropertyListChange]) throws
    -> PropertyListSnapshot
  {
    var known: PropertyListSnapshot?
    _ = try apply(changes, known: &known)
    return known ?? PropertyListSnapshot(document: PropertyListDocument(), version: nil)
  }

  /// Replaces the file's contents with `values` in `format`, under the lock (a journal that
  /// rewrites itself whole).
  ///
  /// - Throws: ``PropertyListError`` when the file cannot be written (it is then unchanged).
  package func replaceContents(
    with values: [PropertyListKey: Any], format: PropertyListSerialization.PropertyListFormat
  )
    throws
  {
    try replaceContents(format: format) { _ in values }
  }

  /// Replaces the file's contents with what `body` makes of the values on disk now (empty when
  /// there is no file), under the lock; when `body` returns nil nothing is written.
  ///
  /// - Returns: Whether the file was written.
  /// - Throws: ``PropertyListError`` when the file cannot be read or written (it is then
  ///   unchanged), and what `body` throws.
  @discardableResult
  package func replaceContents(
    format: PropertyListSerialization.PropertyListFormat,
    _ body: ([PropertyListKey: Any]) throws -> [PropertyListKey: Any]?
  ) throws -> Bool {
    var written = false
    _ = try updateSnapshot { document in
      guard let values = try body(document.values) else { return false }
      document.values = values
      document.format = format
      written = true
      return true
    }
    return written
  }

  /// ``update(known:_:)`` for a writer that keeps no version of the file: reads it under the
  /// lock and returns the version now on disk.
  func updateSnapshot(_ body: (inout PropertyListDocument) throws -> Bool) throws
    -> PropertyListSnapshot
  {
    var known: PropertyListSnapshot?
    try update(known: &known, body)
    return known ?? PropertyListSnapshot(document: PropertyListDocument(), version: nil)
  }

  /// Locks the file, re-reads it and lets `body` change the document read under the lock; writes
  /// the result (as ``apply(_:)`` does) only when `body` returns true.
  ///
  /// For writers whose changes depend on what is on disk now (the cloud container merges by
  /// timestamp). `body` may set the document's format (`.binary` stays binary, anything else is
  /// written as XML).
  ///
  /// - Parameters:
  ///   - known: The version of the file this process last read or wrote: when the file on disk
  ///     is still that version (same ``FileIdentity``), its document is used and the file is not
  ///     read. Replaced by the version on disk afterwards (nil after a failure).
  ///   - changes: The changes `body` applies, when it applies exactly these: a binary file this
  ///     process wrote as `known` is then written by adding only their objects to its draft.
  ///   - body: Changes the document; returns whether it changed anything.
  /// - Returns: Whether the file was read (it was not the `known` version).
  /// - Throws: The errors of ``apply(_:)``, and what `body` throws (the file is then unchanged).
  @discardableResult
  func update(
    known: inout PropertyListSnapshot?,
    applying changes: [PropertyListKey: PropertyListChange]? = nil,
    _ body: (inout PropertyListDocument) throws -> Bool
  ) throws -> Bool {
    let lock: FileLock
    let target: URL
    do {
      target = try SymbolicLinks.target(of: url)
      try PrivateFolder.create(target.deletingLastPathComponent(), for: url)
      lock = try FileLock(url: FileLock.url(guarding: target), guarding: url)
    } catch {
      known = nil
      throw error
    }
    defer { lock.release() }
    TemporaryFileNames.removeStale(for: target)

    var document = PropertyListDocument()
    var draft: BinaryPropertyListDraft?
    var entries: PropertyListEntries?
    var text: Data?
    let (oldVersion, wasRead) = try takeDocument(
      known: &known, onDisk: target, into: &document, draft: &draft, entries: &entries,
      text: &text, readingText: changes != nil)
    if oldVersion != nil {
      do {
        try FileSystem.checkWritable(target.path)
      } catch {
        known = nil
        throw PropertyListError(
          file: url, kind: .unwritable, reason: "the file is read-only (\(error))")
      }
    }
    guard try body(&document) else {
      known = PropertyListSnapshot(
        document: document, version: oldVersion, draft: draft, entries: entries)
      return wasRead
    }
    if document.format != .binary {
      document.format = .xml
      try XMLCharacters.check(
        changes.map { $0.compactMapValues { if case .set(let value) = $0 { value } else { nil } } }
          ?? document.values, writingTo: url)
    }
    let data: Data
    var editedEntries: PropertyListEntries?
    do {
      (data, draft, editedEntries) = try encode(
        document, changes: changes, draft: draft, entries: entries, text: text,
        over: oldVersion)
    } catch let failure as PropertyListEncodingFailure {
      throw PropertyListError(file: url, kind: .unwritable, reason: failure.reason)
    } catch {
      throw PropertyListError(file: url, kind: .unwritable, reason: describe(error))
    }
    try FileContents.checkReadable(
      size: data.count, of: url, changing: changes.map { $0.keys.map(\.string) })
    let written = try AtomicFileWriter(target: target, reportingAs: url).write(data)
    PropertyListCounters.count(\.writes, path: target.path)
    known = PropertyListSnapshot(
      document: document, version: written.map { FileVersion(identity: $0, data: data) },
      draft: draft,
      entries: draft?.entries() ?? editedEntries
        ?? (document.format == .xml ? XMLPropertyListEntries.entries(of: data) : nil))
    return wasRead
  }

  /// The bytes of `document`, and for a binary one the draft that wrote them: `draft` (the
  /// document before `changes`) with `changes` added when there is one, else a new draft; for
  /// an XML one written by an edit of the text on disk (`text`, when it was read as `version`
  /// under the lock; at the places of `entries`, those of `version`, when they are known), the
  /// entries of the new text.
  private func encode(
    _ document: PropertyListDocument, changes: [PropertyListKey: PropertyListChange]?,
    draft: BinaryPropertyListDraft?, entries: PropertyListEntries?, text known: Data?,
    over version: FileVersion?
  ) throws -> (Data, BinaryPropertyListDraft?, PropertyListEntries?) {
    guard document.format == .binary else {
      // The text on disk, when it is still the version the document was read from (the file
      // is locked; a writer that does not lock could still have changed it).
      // Read under the lock by `takeDocument` when the version was known before; else (the
      // file was read again under the lock) read here, as ``textIfStill(_:)`` reads it.
      if let changes, var version,
        let text = known ?? textIfStill(&version),
        let edited = try XMLPropertyListEdit.applying(changes, to: text, known: entries)
      {
        return (edited.text, nil, edited.entries)
      }
      return (try PropertyListEncoding.data(of: document), nil, nil)
    }
    if var draft, let changes, try draft.apply(changes) { return (try draft.data(), draft, nil) }
    let made = try BinaryPropertyListDraft(values: document.values)
    return (try made.data(), made, nil)
  }

  /// The document on disk now, with the file locked: `known`'s (and its draft) when the file is
  /// still that version (``isStill(_:)``: never metadata alone, which can miss another writer's
  /// change), else read. `known` is emptied first so that the document and draft returned are
  /// the only references to their storage: changing them then mutates in place instead of
  /// copying every key.
  ///
  /// - Parameters:
  ///   - text: With `readingText`, the text of an XML document that is still `known`'s version,
  ///     from the one read that found it still (``textIfStill(_:)``): a writer that edits the
  ///     text then does not read and hash it a second time. Else nil.
  ///   - readingText: Whether the caller edits the text of an XML file.
  private func takeDocument(
    known: inout PropertyListSnapshot?, onDisk target: URL,
    into document: inout PropertyListDocument, draft: inout BinaryPropertyListDraft?,
    entries: inout PropertyListEntries?, text: inout Data?, readingText: Bool
  ) throws -> (version: FileVersion?, wasRead: Bool) {
    var cached: PropertyListSnapshot?
    swap(&cached, &known)
    let file = PropertyListFile(url: target)
    /// Whether the file is still `version`; an XML text to edit is kept from the read that tells.
    func isStill(_ version: inout FileVersion, format: PropertyListSerialization.PropertyListFormat)
      -> Bool
    {
      guard readingText, format != .binary else { return file.isStill(&version) }
      text = file.textIfStill(&version)
      return text != nil
    }
    guard var taken = cached, var version = taken.version,
      isStill(&version, format: taken.document.format)
    else {
      cached = nil
      guard var snapshot = try readSnapshotBeforeWriting() else { return (nil, true) }
      swap(&document, &snapshot.document)
      return (snapshot.version, true)
    }
    cached = nil
    swap(&document, &taken.document)
    swap(&draft, &taken.draft)
    swap(&entries, &taken.entries)
    return (version, false)
  }
}

/// The most useful message of a Foundation error (its debug description when it has one).
func describe(_ error: any Error) -> String {
  let nsError = error as NSError
  if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
  if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
    return underlying.localizedDescription
  }
  return nsError.localizedDescription
}

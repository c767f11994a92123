public import Foundation

/// One property-list file on disk (XML or binary), read and written safely by several processes.
///
/// Reading never changes the file (this file: its reads and re-reads after a change). Every
/// write this package makes to such a file (`PropertyListFile+Write.swift`: the two `apply(_:)`,
/// ``save(_:over:)``, suites, cloud containers and their journals, migrations, published
/// schemas, `settings-editor`'s verbs) goes through one method that locks the file, confirms it
/// is still the version this process last read or wrote or reads it again, changes only the
/// given keys and replaces the file atomically, so keys written by other processes in the
/// meantime are kept, and a file that does not parse is never replaced.
public struct PropertyListFile: Sendable {
  /// The file's location (it need not exist yet).
  public let url: URL
  /// Whether a write makes the file's missing folders (mode 0700); when false, a write into a
  /// folder that does not exist fails, naming it.
  package let makesMissingFolders: Bool

  /// Creates a handle for the property-list file at `url`; nothing is read or created. Its
  /// writes make the missing folders of `url`.
  ///
  /// - Parameter url: A `file:` URL.
  public init(url: URL) {
    self.init(url: url, makingMissingFolders: true)
  }

  /// Creates a handle for the property-list file at `url` whose writes make its missing folders
  /// or not: a writer that made or found the folder before passes false, so that a late write
  /// (a store that flushes or closes after its folder was removed) does not make it again.
  package init(url: URL, makingMissingFolders: Bool) {
    self.url = url
    makesMissingFolders = makingMissingFolders
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

  /// The file's bytes, the identity of the version they were read from (taken from the open
  /// descriptor) and their ``ByteHash`` (taken as they were read), or nil when it does not exist.
  ///
  /// - Throws: ``PropertyListError`` of kind `.unreadable`.
  func readData() throws -> (data: Data, identity: FileIdentity, hash: UInt64)? {
    try FileContents.read(url)
  }

  /// Reads and parses the file, keeping the identity of the version parsed (and counting the
  /// parse, see ``PropertyListCounters``).
  ///
  /// - Parameter keepingEntries: Whether to keep the entries of the top dictionary too (its keys
  ///   and fingerprints, ``PropertyListEntries``): for a process that follows the file's changes,
  ///   whose first re-read after another writer's change then decodes only the entries that
  ///   differ, as every later one does (``rereadSnapshot(comparingTo:since:)``), instead of the
  ///   whole file. 8 bytes and a key (shared with the document's) per entry.
  package func readSnapshot(keepingEntries: Bool = false) throws -> PropertyListSnapshot? {
    guard let (data, identity, hash) = try readDataToParse() else { return nil }
    let version = FileVersion(identity: identity, contentHash: hash)
    let (document, _, entries) = try parse(
      data, comparingTo: nil, releasingPages: true, keepingEntries: keepingEntries)
    return PropertyListSnapshot(
      document: document, version: version,
      state: .read(format: document.format, entries: entries))
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
    var taken = base.take()
    guard let (data, identity, hash) = try readDataToParse() else {
      return (nil, Set(previous.keys))
    }
    // Moved out of the optional, not copied (`if var taken`): a second reference to its values
    // made the first change below copy the whole dictionary at each re-read.
    if var taken = taken.take(), let old = taken.state.entries,
      let changes = try changedEntries(of: data, since: old, previous: taken.document.values)
    {
      var changedKeys = Set(changes.removed)
      for key in changes.removed { taken.document.values[key] = nil }
      for (key, value) in changes.set
      where !propertyListValuesEqual(taken.document.values[key], value) {
        changedKeys.insert(key)
        taken.document.values[key] = value
      }
      taken.version = FileVersion(identity: identity, contentHash: hash)
      taken.state = .read(format: taken.document.format, entries: changes.entries)
      return (taken, changedKeys)
    }
    return try rereadWhole(data, identity: identity, hash: hash, comparingTo: previous)
  }

  /// Reads the file again after a change, as ``rereadSnapshot(comparingTo:since:)`` does, for a
  /// reader that keeps the file's values itself (a suite's storage, whose memory less its pending
  /// writes is the file's version `base`): `base`'s document holds no values, and `previous`, the
  /// values of that version, are compared with the file and never changed.
  ///
  /// - Parameters:
  ///   - previous: The values of the version `base`.
  ///   - base: The version before, taken (only its format, version and entries are used).
  /// When the entries of `base` do not tell the changes apart (another writer rewrote the file),
  /// a binary file is still compared with `previous` as it is read, keeping the changed values
  /// only: a million-key suite no longer holds a second dictionary of every value until the
  /// merge.
  ///
  /// - Returns: The version read (nil when the file does not exist), whose document holds the
  ///   value of each changed key that is in the file (every value when an XML file, or a binary
  ///   one holding a key twice, was parsed whole), and the keys whose value was added, changed or
  ///   removed since `previous`.
  /// - Throws: ``PropertyListError`` as ``read()`` does.
  func rereadChanges(
    comparingTo previous: [PropertyListKey: Any], since base: inout PropertyListSnapshot?
  ) throws -> (snapshot: PropertyListSnapshot?, changedKeys: Set<PropertyListKey>) {
    let taken = base.take()
    guard let (data, identity, hash) = try readDataToParse() else {
      return (nil, Set(previous.keys))
    }
    let changes:
      (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)
    let format: PropertyListSerialization.PropertyListFormat
    if let taken, let old = taken.state.entries,
      let changed = try changedEntries(of: data, since: old, previous: previous)
    {
      (changes, format) = (changed, taken.document.format)
    } else if let rewritten = try rewrittenEntries(of: data, comparingTo: previous) {
      (changes, format) = (rewritten, .binary)
    } else {
      return try rereadWhole(data, identity: identity, hash: hash, comparingTo: previous)
    }
    var changedKeys = Set(changes.removed)
    for (key, value) in changes.set where !propertyListValuesEqual(previous[key], value) {
      changedKeys.insert(key)
    }
    let snapshot = PropertyListSnapshot(
      document: PropertyListDocument(values: changes.set, format: format),
      version: FileVersion(identity: identity, contentHash: hash),
      state: .read(format: format, entries: changes.entries))
    return (snapshot, changedKeys)
  }

  /// The entries of the top dictionary of `data`, a binary file another writer rewrote, whose
  /// values differ from `previous`, read whole without a second dictionary of every value (see
  /// ``BinaryPropertyListScanner/changes(of:comparingTo:)``); nil for any other file, or when the
  /// file must be parsed as ``rereadWhole(_:identity:hash:comparingTo:)`` does. Counts the keys
  /// read (``PropertyListCounters``).
  ///
  /// - Throws: ``PropertyListError`` of kind `.malformed`.
  private func rewrittenEntries(of data: Data, comparingTo previous: [PropertyListKey: Any]) throws
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    guard data.starts(with: "bplist".utf8) else { return nil }
    let changes = try malformedIfRejected { () throws(PropertyListRejection) in
      try BinaryPropertyListScanner.changes(of: data, comparingTo: previous)
    }
    if let changes {
      let path = url.resolvingSymlinksInPath().path
      PropertyListCounters.count(\.keysReread, by: changes.entries.keys.count, path: path)
    }
    return changes
  }

  /// ``readData()``, counting the parse that follows (``PropertyListCounters``); bytes that may
  /// mix two versions (``readDataNoticingWrites()``) are refused as a half-written file is, so that the
  /// readers and writers that read such a file again after a pause
  /// (``retryingHalfWritten(suspecting:_:)``) do.
  ///
  /// - Throws: ``PropertyListError`` of kind `.unreadable`, or `.malformed` when the file was
  ///   being written while it was read.
  func readDataToParse() throws -> (data: Data, identity: FileIdentity, hash: UInt64)? {
    guard let read = try readDataNoticingWrites() else { return nil }
    guard !read.wasWritten else {
      throw PropertyListError(
        file: url, kind: .malformed, reason: "it was being written while it was read")
    }
    PropertyListCounters.count(\.parses, path: url.resolvingSymlinksInPath().path)
    return (read.data, read.identity, read.hash)
  }

  /// The entries of the top dictionary of `data` that differ from `old`, the entries of the
  /// version whose values are `previous`; nil when the file must be parsed whole (see
  /// ``BinaryPropertyListScanner/changes(of:since:previous:)``), as an empty file is: parsed
  /// whole it reads as an empty document, where the XML scan refused it (a file opened in the
  /// editor and emptied kept its old rows). Counts the keys read (``PropertyListCounters``).
  ///
  /// - Throws: ``PropertyListError`` of kind `.malformed`.
  private func changedEntries(
    of data: Data, since old: PropertyListEntries, previous: [PropertyListKey: Any]
  ) throws
    -> (set: [PropertyListKey: Any], removed: [PropertyListKey], entries: PropertyListEntries)?
  {
    guard !data.isEmpty else { return nil }
    let isBinary = data.starts(with: "bplist".utf8)
    let changes = try malformedIfRejected { () throws(PropertyListRejection) in
      isBinary
        ? try BinaryPropertyListScanner.changes(of: data, since: old, previous: previous)
        : try XMLPropertyListEntries.changes(of: data, since: old, previous: previous)
    }
    if let changes {
      let path = url.resolvingSymlinksInPath().path
      PropertyListCounters.count(\.keysReread, by: changes.set.count, path: path)
    }
    return changes
  }

  /// The file's bytes `data` (whose content hash, taken as they were read, is `hash`) parsed
  /// whole after a change, compared with `previous`; counts the keys read.
  ///
  /// - Throws: ``PropertyListError`` as ``read()`` does.
  private func rereadWhole(
    _ data: Data, identity: FileIdentity, hash: UInt64, comparingTo previous: [PropertyListKey: Any]
  ) throws -> (snapshot: PropertyListSnapshot?, changedKeys: Set<PropertyListKey>) {
    let path = url.resolvingSymlinksInPath().path
    let (document, changedKeys, entries) = try parse(data, comparingTo: previous)
    PropertyListCounters.count(\.keysReread, by: document.values.count, path: path)
    let snapshot = PropertyListSnapshot(
      document: document, version: FileVersion(identity: identity, contentHash: hash),
      state: .read(format: document.format, entries: entries))
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
  func malformedIfRejected<Result>(
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
  /// `previous`, also returns the keys whose value differs from it and the entries of its top
  /// dictionary (see ``rereadSnapshot(comparingTo:since:)``); with `keepingEntries`, those
  /// entries alone. With `releasingPages`, the bytes are no one else's and a binary file's pages
  /// are given back as they are read (see
  /// ``BinaryPropertyListScanner/value(releasingPagesOf:keepingEntries:)``). Each format is
  /// checked by the reader that reads it, in the same pass.
  ///
  /// - Throws: ``PropertyListError`` of kind `.malformed`.
  private func parse(
    _ data: Data, comparingTo previous: [PropertyListKey: Any]?, releasingPages: Bool = false,
    keepingEntries: Bool = false
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
          (root, _, entries) = try BinaryPropertyListScanner.value(
            releasingPagesOf: data, keepingEntries: keepingEntries)
        } else {
          root = try BinaryPropertyListScanner.root(of: data)
        }
        values = root as? [PropertyListKey: Any]
      } else {
        // Our readers, keys exact: Foundation's parser was 6.8 s and 684 MB for a
        // 1,000,000-key XML suite, and its `String`-keyed dictionaries merge keys that differ
        // only in Unicode normalization.
        let reading = try PropertyListText.read(
          data, indexing: previous != nil || keepingEntries)
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

import Foundation

extension PropertyListFile {
  /// At most this many changes are written into a file's bytes by ``write(_:)``; more are
  /// written by encoding the document.
  static let maximumSplicedChanges = 16

  /// Applies `changes` as ``apply(_:)`` does, for a process that keeps nothing of the file (a
  /// command that writes a few keys and exits, `settings-editor write`): they are written into
  /// the file's bytes without building its document when they can be, so the work is in
  /// proportion to the changes and the bytes copied, not to the number of keys (a binary file by
  /// ``BinaryPropertyListSplice``, an XML file in the plain form writers produce by
  /// ``XMLPropertyListEdit``). The file is read once under the lock and checked whole, as every
  /// read checks it (a write is acknowledged only when every reader can read the file back);
  /// when no value changes it is not written. Otherwise (no file, an empty one, one being
  /// written while it was read (``readDataNoticingWrites()``), another format or form, a changed key held
  /// twice, too many changes, or a binary file whose unreferenced bytes would pass a quarter of
  /// it) the document is read and written as ``apply(_:)`` does.
  /// The change history gets the same line either way.
  ///
  /// - Returns: Whether the changes were written into the file's bytes (or changed nothing).
  /// - Throws: The errors of ``apply(_:)``.
  @discardableResult
  package func write(_ changes: [PropertyListKey: PropertyListChange]) throws -> Bool {
    var known: PropertyListSnapshot?
    let (lock, target) = try lockTarget(dropping: &known)
    let writes: [ChangeHistory.Write]?
    do {
      defer { lock.release() }
      writes = try writeSplicing(changes, to: target)
    }
    guard let writes else {
      _ = try apply(changes, known: &known)
      return false
    }
    if let (history, suite) = ChangeHistory.ofSuiteFile(at: url) {
      history.record(writes, suite: suite)
    }
    return true
  }

  /// Writes `changes` into the bytes of the file at `target` (locked by the caller).
  ///
  /// - Returns: The writes to record in the change history (none when nothing changed), or nil
  ///   when the changes cannot be written this way.
  private func writeSplicing(_ changes: [PropertyListKey: PropertyListChange], to target: URL)
    throws -> [ChangeHistory.Write]?
  {
    // A file being written while it was read is left to `apply`, which reads it again.
    guard changes.count <= Self.maximumSplicedChanges,
      let (data, _, _, wasWritten) = try PropertyListFile(url: target).readDataNoticingWrites(),
      !data.isEmpty, !wasWritten
    else { return nil }
    try checkWritable(target)
    let values = Self.setValues(changes)
    try PropertyListLimits.preferences.checkValues(of: values, writingTo: url)
    let outcome = try fileErrorIfFailing { () throws -> PropertyListSpliceOutcome? in
      guard !data.starts(with: "bplist".utf8) else {
        return try BinaryPropertyListSplice.applying(changes, to: data)
      }
      try XMLHoldableValues.check(values, writingTo: url)
      return try XMLPropertyListEdit.applyingChecked(changes, to: data)
    }
    guard let outcome else { return nil }
    guard case .spliced(let pieces, let old, let encodedKeys, let copiedBytes) = outcome else {
      return []
    }
    try FileContents.checkReadable(
      size: pieces.reduce(0) { $0 + $1.count }, of: url, changing: changes.keys.map(\.string))
    _ = try AtomicFileWriter(target: target, reportingAs: url).writeHashed(pieces)
    PropertyListCounters.count(\.writes, path: target.path)
    PropertyListCounters.count(\.keysEncoded, by: encodedKeys, path: target.path)
    PropertyListCounters.count(\.bytesCopied, by: copiedBytes, path: target.path)
    PropertyListCounters.count(
      \.valuesDecoded, by: old.values.count { $0 != nil }, path: target.path)
    return old.sorted { $0.key < $1.key }.map { key, old in
      let new: Any? = if case .set(let value) = changes[key] { value } else { nil }
      return ChangeHistory.Write(key: key, old: old, new: new)
    }
  }
}

/// What writing a few changes into a file's bytes made of them (``BinaryPropertyListSplice``,
/// ``XMLPropertyListEdit/applyingChecked(_:to:)``).
enum PropertyListSpliceOutcome {
  /// No change changes a value: the file need not be written.
  case unchanged
  /// The new bytes, in pieces to be written one after the other (a binary file's: slices of the
  /// file's own bytes, then the bytes made new); the value before of each key changed (nil for
  /// a key added); how many keys' values were encoded, and how many bytes of the file were
  /// kept without being decoded.
  case spliced([Data], old: [PropertyListKey: Any?], encodedKeys: Int, copiedBytes: Int)
}

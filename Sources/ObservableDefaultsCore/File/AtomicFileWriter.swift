package import Foundation

/// Replaces one file atomically: a temporary file in the same folder, `fsync`, then `rename(2)`.
package struct AtomicFileWriter {
  /// The file to replace (symbolic links already resolved).
  let target: URL
  /// The file to name in errors (the one the caller asked for).
  let reportingAs: URL

  /// Writes `data` as the new contents of ``target``.
  ///
  /// The new file keeps the permission bits of the file it replaces (0600 minus the umask for a
  /// new file: preferences are private, as Foundation makes them). On failure the temporary file
  /// is removed and ``target`` is unchanged. The new file carries this process's ``WriterMark``,
  /// set before the rename: the mark and the contents land together.
  ///
  /// - Returns: The identity of the file written, taken from its descriptor after the rename
  ///   (`fstat`): a `stat` of the path could see another writer's replacement that landed in
  ///   between and take it for this version.
  /// - Throws: ``PropertyListError`` of kind `.unwritable`.
  @discardableResult
  func write(_ data: Data) throws -> FileIdentity? {
    try writeHashed([data]).identity
  }

  /// Writes `pieces`, one after the other, as the new contents of ``target`` as ``write(_:)``
  /// does, and gives their ``ByteHash`` too, taken ``ByteHash/pieceSize`` bytes at a time right
  /// after each is written, while they are still in the processor's cache: the version
  /// written is known without another pass over its bytes. A large value can be written from
  /// its own bytes, a piece of its own, instead of being copied into the file's bytes first.
  ///
  /// - Parameter creating: Whether ``target`` was absent when its new contents were made (from
  ///   no file): the rename then never replaces a file that is there by now (one another
  ///   program made, or one a read took for absent: an `open` that failed with `ENOENT`), whose
  ///   values the new contents would drop.
  /// - Returns: The identity of the file written (as ``write(_:)`` gives it) and the hash.
  /// - Throws: ``PropertyListError`` of kind `.unwritable`; when `creating`, also when a file is
  ///   at ``target`` (nothing is replaced).
  func writeHashed(_ pieces: [Data], creating: Bool = false) throws -> (
    identity: FileIdentity?, hash: UInt64
  ) {
    let temporary = TemporaryFileNames.make(for: target)
    let descriptor = try step("temporary file") {
      try FileDescriptor.open(
        temporary.path, [.writeOnly, .create, .exclusiveCreate], creatingWith: 0o600)
    }
    var succeeded = false
    defer {
      if !succeeded { FileSystem.removeFile(temporary.path) }
    }
    var isOpen = true
    defer { if isOpen { descriptor.close() } }
    // Opened before the permissions below are set, which may take reading away.
    let reader = Self.readingCopy(of: descriptor, at: temporary)
    defer { reader?.close() }
    if let existing = try? Stat(target.path) {
      try step("permissions") { try descriptor.setPermissions(existing.permissions) }
    }
    var hash = ByteHash.Pieces(count: pieces.reduce(0) { $0 + $1.count })
    try step("write") {
      for piece in pieces {
        try piece.withUnsafeBytes { bytes in
          var start = 0
          while start < bytes.count {
            let part = UnsafeRawBufferPointer(
              rebasing: bytes[start..<min(start + ByteHash.pieceSize, bytes.count)])
            try descriptor.writeAll(part)
            hash.take(part)
            start += part.count
          }
        }
      }
    }
    WriterMark.attach(to: descriptor)
    try step("fsync") { try descriptor.synchronize() }
    // Closed before the rename, so that its `IN_CLOSE_WRITE` names the temporary file: closed
    // after it, the event named the file, and every process watching it (this one included)
    // took it for a second change after the rename's `IN_MOVED_TO` and read and hashed the new
    // version again when its re-read had already begun.
    if reader != nil {
      descriptor.close()
      isOpen = false
    }
    if creating {
      do {
        try FileSystem.renameWithoutReplacing(temporary.path, to: target.path)
      } catch {
        throw PropertyListError(
          file: reportingAs, kind: .unwritable,
          reason: error == .fileExists
            ? "the file was absent when it was read and is there now; it was left as it is"
            : "rename: \(error)")
      }
    } else {
      try step("rename") { try FileSystem.rename(temporary.path, to: target.path) }
    }
    succeeded = true
    return (FileIdentity.of(descriptor: reader ?? descriptor), hash.finalize())
  }

  /// A read-only descriptor of the file open as `descriptor` (the temporary file at `path`,
  /// checked to be the same file), whose close makes no `IN_CLOSE_WRITE`: the identity of the
  /// file written is taken from it after the rename (the rename changes the file's status-change
  /// time). Nil when the file cannot be opened again (the write descriptor then stays open until
  /// after the rename, as it did).
  private static func readingCopy(of descriptor: FileDescriptor, at path: URL) -> FileDescriptor? {
    guard let written = try? descriptor.stat(),
      let copy = try? FileDescriptor.open(path.path, [.readOnly, .noFollow])
    else { return nil }
    guard let opened = try? copy.stat(), opened.isSameFile(as: written) else {
      copy.close()
      return nil
    }
    return copy
  }

  /// Writes `data` as the file at `url`: a new file, or a regular file replaced atomically (as
  /// ``write(_:)`` does). Anything else at `url` — a symbolic link, a folder, a device node, a
  /// named pipe or a socket, which a rename would replace with a regular file — is refused and
  /// left as it is: a program asked to write a file never destroys a device or a link.
  ///
  /// - Throws: ``PropertyListError`` of kind `.unwritable` naming what is at `url`, or the
  ///   errors of ``write(_:)``.
  package static func writeRegularFile(_ data: Data, to url: URL) throws {
    if let status = try? Stat(url.path, followTargetSymlink: false), status.type != .regular {
      let what =
        switch status.type {
        case .symbolicLink: "a symbolic link"
        case .directory: "a folder"
        default: FileContents.describe(status.type)
        }
      throw PropertyListError(
        file: url, kind: .unwritable,
        reason: "it is \(what), not a regular file; it was left as it was")
    }
    try AtomicFileWriter(target: url, reportingAs: url).write(data)
  }

  /// `body`'s result; its error as a ``PropertyListError`` naming `name` and the reason.
  private func step<Result>(_ name: String, _ body: () throws -> Result) throws -> Result {
    do {
      return try body()
    } catch {
      throw PropertyListError(file: reportingAs, kind: .unwritable, reason: "\(name): \(error)")
    }
  }
}

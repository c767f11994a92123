import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Replaces one file atomically: a temporary file in the same folder, `fsync`, then `rename(2)`.
struct AtomicFileWriter {
  /// The file to replace (symbolic links already resolved).
  let target: URL
  /// The file to name in errors (the one the caller asked for).
  let reportingAs: URL

  /// Writes `data` as the new contents of ``target``.
  ///
  /// The new file keeps the permission bits of the file it replaces (0600 minus the umask for a
  /// new file: preferences are private, as Foundation makes them). On failure the temporary file
  /// is removed and ``target`` is unchanged.
  ///
  /// - Returns: The identity of the file written, taken from its descriptor after the rename
  ///   (`fstat`): a `stat` of the path could see another writer's replacement that landed in
  ///   between and take it for this version.
  /// - Throws: ``PropertyListError`` of kind `.unwritable`.
  @discardableResult
  func write(_ data: Data) throws -> FileIdentity? {
    let temporary = TemporaryFileNames.make(for: target)
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure("temporary file") }
    var succeeded = false
    defer {
      if !succeeded { unlink(temporary.path) }
    }
    defer { close(descriptor) }
    var existing = stat()
    if stat(target.path, &existing) == 0, fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
      throw failure("permissions")
    }
    try writeAll(data, to: descriptor)
    guard fsync(descriptor) == 0 else { throw failure("fsync") }
    guard rename(temporary.path, target.path) == 0 else { throw failure("rename") }
    succeeded = true
    return FileIdentity.of(descriptor: descriptor)
  }

  private func writeAll(_ data: Data, to descriptor: Int32) throws {
    try data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw failure("write")
        }
        offset += written
      }
    }
  }

  private func failure(_ step: String) -> PropertyListError {
    PropertyListError(file: reportingAs, kind: .unwritable, reason: "\(step): \(systemError())")
  }
}

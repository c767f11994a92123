import Foundation

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
    let descriptor = try step("temporary file") {
      try FileDescriptor.open(
        temporary.path, [.writeOnly, .create, .exclusive], creatingWith: 0o600)
    }
    var succeeded = false
    defer {
      if !succeeded { FileSystem.removeFile(temporary.path) }
    }
    defer { descriptor.close() }
    if let existing = try? FileStatus.ofFile(atPath: target.path) {
      try step("permissions") { try descriptor.setPermissions(existing.permissions) }
    }
    try step("write") { try data.withUnsafeBytes { try descriptor.writeAll($0) } }
    try step("fsync") { try descriptor.synchronize() }
    try step("rename") { try FileSystem.rename(temporary.path, to: target.path) }
    succeeded = true
    return FileIdentity.of(descriptor: descriptor)
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

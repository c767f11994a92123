import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Appending to a history file, safe with several processes appending at once.
extension ChangeHistory {
  /// Appends `entry` to the history of `suite`.
  ///
  /// - Throws: The errors of ``append(_:suite:)-(_,_)``.
  package func append(_ entry: Entry, suite: String) throws {
    try append([entry], suite: suite)
  }

  /// Appends `entries` to the history of `suite` in one `write(2)`, then bounds the file.
  ///
  /// The file is opened in append mode and written under a shared `flock(2)`, so the lines of
  /// several processes never interleave within a line (the kernel appends each write at the end
  /// as one); a file above ``maximumBytes`` is cut to its newest half under an exclusive lock by
  /// writing a new file and renaming it over the old one. A writer that opened the old file
  /// before that rename finds it replaced once it holds the lock, and appends to the new one.
  ///
  /// - Throws: ``PropertyListError`` of kind `.unwritable` when the folder or the file cannot
  ///   be made or written.
  package func append(_ entries: [Entry], suite: String) throws {
    guard !entries.isEmpty else { return }
    let url = file(suite: suite)
    let bytes = Array(entries.map(Self.line).joined().utf8)
    // A trim that replaced the file between the open and the lock: append to the new one.
    for _ in 0..<3 {
      let descriptor = try open(url)
      defer { close(descriptor) }
      guard flock(descriptor, LOCK_SH) == 0 else { throw failure(url, errno) }
      defer { flock(descriptor, LOCK_UN) }
      guard isStill(descriptor, at: url) else { continue }
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard written == bytes.count else {
        throw PropertyListError(
          file: url, kind: .unwritable,
          reason: written < 0 ? String(cString: strerror(errno)) : "short write")
      }
      var status = stat()
      if fstat(descriptor, &status) == 0, Int(status.st_size) > Self.maximumBytes {
        // Another writer's trim may run between the two locks: the check is made again.
        guard flock(descriptor, LOCK_EX) == 0, isStill(descriptor, at: url),
          fstat(descriptor, &status) == 0, Int(status.st_size) > Self.maximumBytes
        else { return }
        try trim(url)
      }
      return
    }
  }

  /// The history file at `url` opened for appending (created with mode 0600 in folders of
  /// mode 0700); a symbolic link is refused.
  private func open(_ url: URL) throws -> Int32 {
    let flags = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC
    var descriptor = Glibc.open(url.path, flags, 0o600)
    if descriptor < 0, errno == ENOENT {
      try PrivateFolder.create(folder, for: url)
      descriptor = Glibc.open(url.path, flags, 0o600)
    }
    guard descriptor >= 0 else { throw failure(url, errno) }
    return descriptor
  }

  /// Whether the open file `descriptor` is still the file at `url` (no trim replaced it).
  private func isStill(_ descriptor: Int32, at url: URL) -> Bool {
    var open = stat()
    var named = stat()
    return fstat(descriptor, &open) == 0 && lstat(url.path, &named) == 0
      && open.st_ino == named.st_ino && open.st_dev == named.st_dev
  }

  /// Drops the oldest lines of the file at `url` down to half of ``maximumBytes``, replacing it
  /// atomically (the caller holds the exclusive lock).
  private func trim(_ url: URL) throws {
    let data = try Data(contentsOf: url)
    var start = max(0, data.count - Self.maximumBytes / 2)
    while start < data.count, start > 0, data[data.startIndex + start - 1] != UInt8(ascii: "\n") {
      start += 1
    }
    try AtomicFileWriter.writeRegularFile(data.dropFirst(start), to: url)
  }

  private func failure(_ url: URL, _ code: Int32) -> PropertyListError {
    PropertyListError(file: url, kind: .unwritable, reason: String(cString: strerror(code)))
  }
}

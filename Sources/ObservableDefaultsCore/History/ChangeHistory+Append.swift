import Foundation

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
    let bytes = Array(Self.lines(entries).utf8)
    // A trim that replaced the file between the open and the lock: append to the new one.
    for _ in 0..<3 {
      do {
        let descriptor = try open(url)
        defer { descriptor.close() }
        try descriptor.lockShared()
        defer { descriptor.unlock() }
        guard try isStill(descriptor, at: url) else { continue }
        try bytes.withUnsafeBytes { try descriptor.writeAll($0) }
        guard try descriptor.stat().size > Self.maximumBytes else { return }
        // Another writer's trim may run between the two locks: the check is made again.
        try descriptor.lockExclusively()
        guard try isStill(descriptor, at: url), try descriptor.stat().size > Self.maximumBytes
        else { return }
        try trim(url)
        return
      } catch let error as Errno {
        throw PropertyListError(file: url, kind: .unwritable, reason: error.description)
      }
    }
  }

  /// The history file at `url` opened for appending (created with mode 0600 in folders of
  /// mode 0700); a symbolic link is refused.
  private func open(_ url: URL) throws -> FileDescriptor {
    let options: FileDescriptor.OpenOptions = [.writeOnly, .append, .create, .noFollow]
    let opened = Result { () throws(Errno) in
      try FileDescriptor.open(url.path, options, creatingWith: 0o600)
    }
    if case .failure(let error) = opened, error == .noSuchFileOrDirectory {
      try PrivateFolder.create(folder, for: url)
      return try FileDescriptor.open(url.path, options, creatingWith: 0o600)
    }
    return try opened.get()
  }

  /// Whether the open file `descriptor` is still the file at `url` (no trim replaced it).
  private func isStill(_ descriptor: FileDescriptor, at url: URL) throws(Errno) -> Bool {
    let open = try descriptor.stat()
    guard let named = try? Stat(url.path, followTargetSymlink: false) else { return false }
    return open.inode == named.inode && open.deviceID == named.deviceID
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
}

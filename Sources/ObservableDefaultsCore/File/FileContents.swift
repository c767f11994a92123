package import Foundation

/// Reads a property-list file's bytes, refusing what is not a regular file with a reason people
/// understand (Foundation's `Data(contentsOf:)` reports a folder as "error 256" and reads
/// `/dev/zero` until memory runs out).
package enum FileContents {
  /// The largest file read by default (256 MiB): far above any preferences file.
  package static let maximumSize = 256 << 20

  /// Refuses to write a file of `size` bytes that ``read(_:maximumSize:)`` would refuse: a write
  /// is acknowledged only when every reader, the writer included, can read it back.
  ///
  /// - Parameters:
  ///   - size: The bytes of the new file.
  ///   - url: The file, as the error names it.
  ///   - keys: The top-level keys the write changes, when known.
  /// - Throws: ``PropertyListError`` of kind `.invalidValue(key:)` when the write changes one key,
  ///   else `.unwritable` naming the keys, with the size and the limit in bytes.
  static func checkReadable(size: Int, of url: URL, changing keys: [String]?) throws {
    guard size > maximumSize else { return }
    throw refusal(
      of: url, changing: keys,
      "would make the file \(size) bytes, above the \(maximumSize) bytes "
        + "(\(maximumSize >> 20) MiB) a reader reads")
  }

  /// The error refusing a write to `url` that changes `keys` (when known) because it `would`
  /// (e.g. `would make the file … bytes, above …`): `.invalidValue(key:)` when it changes one
  /// key (`it would …`), else `.unwritable` naming the keys (`writing a, b would …`).
  /// Either way ``PropertyListError/passesReadersLimit`` is true.
  static func refusal(of url: URL, changing keys: [String]?, _ would: String) -> PropertyListError {
    let reason = would + "; nothing was written"
    var error: PropertyListError
    if let keys, keys.count == 1 {
      error = PropertyListError(
        file: url, kind: .invalidValue(key: keys[0]), reason: "it " + reason)
    } else {
      let named = keys.map { "writing " + $0.sorted().joined(separator: ", ") + " " } ?? ""
      error = PropertyListError(file: url, kind: .unwritable, reason: named + reason)
    }
    error.passesReadersLimit = true
    return error
  }

  /// The bytes of the file at `url` (symbolic links followed), the identity of the version read
  /// and the bytes' ``ByteHash`` (taken as they are read, ``ByteHash/pieceSize`` bytes at a time,
  /// while each piece is still in the processor's cache: hashing the version after the read was
  /// a pass of its own over a 50 MB file), or nil when there is no file (also for a symbolic
  /// link whose target does not exist).
  ///
  /// - Throws: ``PropertyListError`` of kind `.unreadable` naming the reason: permission denied,
  ///   a symbolic link loop, a folder, a device or other non-regular file, a file above
  ///   `maximumSize` bytes (a whole number of MiB), an I/O error.
  static func read(_ url: URL, maximumSize: Int = maximumSize) throws -> (
    data: Data, identity: FileIdentity, hash: UInt64
  )? {
    let read = try withOpenFile(url, maximumSize: maximumSize) { descriptor, size, failure in
      try readAll(descriptor, size: size, maximumSize: maximumSize, failure)
    }
    return read.map { (data: $0.0.data, identity: $0.1, hash: $0.0.hash) }
  }

  /// The bytes of the file open as `descriptor`, from where it is now (its start when just
  /// opened), refused as ``read(_:maximumSize:)`` refuses a file: the file opened, whatever was
  /// renamed or put at its path since (a file opened without following symbolic links is read
  /// as it was opened). The descriptor stays open.
  ///
  /// - Parameter url: The file, as failures name it.
  /// - Throws: ``PropertyListError`` of kind `.unreadable` naming the reason, as
  ///   ``read(_:maximumSize:)`` does.
  package static func read(
    descriptor: FileDescriptor, shownAs url: URL, maximumSize: Int = maximumSize
  ) throws -> Data {
    try withCheckedFile(descriptor, url, maximumSize: maximumSize) { descriptor, size, failure in
      try readAll(descriptor, size: size, maximumSize: maximumSize, failure)
    }.0.data
  }

  /// Reads all of the open file `descriptor` of `size` bytes (it may have grown since), into one
  /// buffer of at most `maximumSize` + 1 bytes, and hashes the bytes as they come in.
  ///
  /// - Throws: `failure` of the reason when the file is above `maximumSize` bytes, memory runs
  ///   out or a read fails.
  private static func readAll(
    _ descriptor: FileDescriptor, size: Int, maximumSize: Int,
    _ failure: (String) -> PropertyListError
  ) throws -> (data: Data, hash: UInt64) {
    // Not `Data(count:)`: zeroing the buffer before reading into it was a fifth of a flush of
    // a 50 MB value. One byte more than the file, so that its end is found without growing.
    var capacity = max(size + 1, 4096)
    guard var buffer = SystemMemory.allocate(byteCount: capacity) else {
      throw failure("out of memory")
    }
    var length = 0
    // The whole 32-byte blocks read so far are hashed after each read of a piece.
    var hash = ByteHash(count: size)
    var hashed = 0
    do {
      while true {
        if length == capacity {
          guard capacity < maximumSize else {
            throw failure("it is larger than \(maximumSize >> 20) MiB")
          }
          let larger = min(capacity * 2, maximumSize + 1)
          guard let moved = SystemMemory.resize(buffer, from: capacity, to: larger) else {
            throw failure("out of memory")
          }
          (buffer, capacity) = (moved, larger)
        }
        let piece = min(capacity - length, ByteHash.pieceSize)
        guard let count = try readSome(descriptor, into: buffer + length, piece, failure) else {
          break
        }
        length += count
        let blocks = (length - hashed) & ~31
        hash.combine(buffer + hashed, blocks)
        hashed += blocks
      }
    } catch {
      SystemMemory.deallocate(buffer, byteCount: capacity)
      throw error
    }
    // A file that grew or shrank since its size was taken: hashed again as the bytes read.
    let digest =
      length == size
      ? hash.finalize(buffer + hashed, length - hashed) : ByteHash.of(buffer, length)
    return (SystemMemory.data(taking: buffer, count: length, byteCount: capacity), digest)
  }

  /// The ``ByteHash`` of the bytes of the file at `url` and the identity of the version read, as
  /// ``read(_:maximumSize:)`` would give them, read in pieces of 1 MiB: confirming that a 50 MB
  /// file is still the version written no longer holds a second copy of it. Nil when there is no
  /// file.
  ///
  /// - Throws: ``PropertyListError`` as ``read(_:maximumSize:)`` does.
  static func contentHash(of url: URL) throws -> (hash: UInt64, identity: FileIdentity)? {
    let read = try withOpenFile(url, maximumSize: maximumSize) { descriptor, size, failure in
      let capacity = 1 << 20
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 32)
      defer { buffer.deallocate() }
      var hash = ByteHash(count: size)
      var (pending, total) = (0, 0)
      while let count = try readSome(
        descriptor, into: buffer + pending, capacity - pending, failure)
      {
        total += count
        pending += count
        let blocks = pending & ~31
        hash.combine(buffer, blocks)
        pending -= blocks
        buffer.copyMemory(from: buffer + blocks, byteCount: pending)
      }
      // A file that changed size meanwhile is another version: its hash is that of other bytes.
      return total == size ? hash.finalize(buffer, pending) : ~hash.finalize(buffer, pending)
    }
    return read.map { (hash: $0.0, identity: $0.1) }
  }

  /// ``read(_:maximumSize:)``, and whether the file it read was being written meanwhile: the
  /// descriptor read (not whatever the path names by then: a file put there whole by a rename
  /// after the read mixes nothing) is looked at again, and while its times are recent
  /// (``FileIdentity/isSettled(at:)``) read again and compared with the bytes read, in pieces
  /// of ``ByteHash/pieceSize`` (`memcmp`, stopping at the first difference): a block small
  /// enough to come from the heap again each time (a MiB, which the editor and `watch` map
  /// afresh, faulted in 256 new pages at each re-read) and to stay in the processor's cache.
  ///
  /// A program that writes the file in place without the lock (`pwrite` of its new text over the
  /// old one) may be halfway when it is read: the bytes are the new text up to some point and
  /// the old one after it, which can parse. Its write changes the file's times when it starts:
  /// a file whose times are settled has none under way, and one that starts during the read
  /// changes the identity; one that started just before the read is seen in the bytes, unless
  /// it stalls halfway (its process not scheduled) while both reads are made.
  ///
  /// - Returns: The bytes, identity and hash as ``read(_:maximumSize:)`` gives them; `changed`,
  ///   whether the file changed while it was read; `compared`, whether it was read again.
  /// - Throws: ``PropertyListError`` as ``read(_:maximumSize:)`` does.
  static func readNoticingWrites(_ url: URL) throws -> (
    data: Data, identity: FileIdentity, hash: UInt64, changed: Bool, compared: Bool
  )? {
    let read = try withOpenFile(url, maximumSize: maximumSize) { descriptor, size, failure in
      let (data, hash) = try readAll(descriptor, size: size, maximumSize: maximumSize, failure)
      let after = FileIdentity.of(descriptor: descriptor)
      let isRecent = after.map { !$0.isSettled(at: FileIdentity.now()) } ?? true
      return (data, hash, after, isRecent ? holds(data, in: descriptor) : nil)
    }
    guard let ((data, hash, after, same), identity) = read else { return nil }
    return (data, identity, hash, after != identity || same == false, same != nil)
  }

  /// Whether the file open as `descriptor` holds exactly `bytes`, read from its start
  /// (`pread`); false when it cannot be read.
  private static func holds(_ bytes: Data, in descriptor: FileDescriptor) -> Bool {
    let capacity = ByteHash.pieceSize
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 32)
    defer { buffer.deallocate() }
    return bytes.withUnsafeBytes { expected in
      var offset = 0
      while true {
        guard let count = try? descriptor.read(into: buffer, count: capacity, at: offset) else {
          return false
        }
        guard count > 0 else { return offset == expected.count }
        guard offset + count <= expected.count,
          memcmp(buffer, expected.baseAddress! + offset, count) == 0
        else { return false }
        offset += count
      }
    }
  }

  /// Opens the file at `url`, checks that it is a regular file of at most `maximumSize` bytes,
  /// and gives `body` the descriptor, the size and the way to name a failure.
  private static func withOpenFile<Result>(
    _ url: URL, maximumSize: Int,
    _ body: (FileDescriptor, Int, (String) -> PropertyListError) throws -> Result
  ) throws -> (Result, FileIdentity)? {
    func failure(_ reason: String) -> PropertyListError {
      PropertyListError(file: url, kind: .unreadable, reason: reason)
    }
    // Non-blocking: opening a FIFO must not wait for a writer.
    let descriptor: FileDescriptor
    do {
      descriptor = try .open(url.path, [.readOnly, .nonBlocking])
    } catch {
      switch error {
      case .noSuchFileOrDirectory: return nil
      case .tooManySymbolicLinkLevels: throw failure("a symbolic link loop")
      default: throw failure("\(error)")
      }
    }
    defer { descriptor.close() }
    return try withCheckedFile(descriptor, url, maximumSize: maximumSize, body)
  }

  /// Checks that the open file `descriptor` is a regular file of at most `maximumSize` bytes, and
  /// gives `body` the descriptor, the size and the way to name a failure (of `url`).
  private static func withCheckedFile<Result>(
    _ descriptor: FileDescriptor, _ url: URL, maximumSize: Int,
    _ body: (FileDescriptor, Int, (String) -> PropertyListError) throws -> Result
  ) throws -> (Result, FileIdentity) {
    func failure(_ reason: String) -> PropertyListError {
      PropertyListError(file: url, kind: .unreadable, reason: reason)
    }
    let status: Stat
    do { status = try descriptor.stat() } catch { throw failure("\(error)") }
    let type = status.type
    guard type == .regular else {
      throw failure(
        type == .directory
          ? "it is a folder, not a file" : "it is not a regular file (\(describe(type)))")
    }
    guard status.size <= maximumSize else {
      throw failure("it is larger than \(maximumSize >> 20) MiB")
    }
    ReadInterruption.run(reading: url)
    return (try body(descriptor, status.size, failure), FileIdentity(status))
  }

  /// Reads up to `count` bytes into `buffer`: how many, or nil at the end of the file.
  private static func readSome(
    _ descriptor: FileDescriptor, into buffer: UnsafeMutableRawPointer, _ count: Int,
    _ failure: (String) -> PropertyListError
  ) throws -> Int? {
    while true {
      do {
        let result = try descriptor.read(into: buffer, count: count)
        return result > 0 ? result : nil
      } catch {
        if error != .wouldBlock { throw failure("\(error)") }
      }
    }
  }

  /// What a file of `type` that is not a regular file or a folder is, for people.
  static func describe(_ type: FileType) -> String {
    switch type {
    case .characterSpecial: "a character device"
    case .blockSpecial: "a block device"
    case .fifo: "a named pipe"
    case .socket: "a socket"
    default: "not a file"
    }
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// An open file descriptor of the process: `open(2)` and the calls made on what it opened.
/// Every descriptor is opened close-on-exec, so child processes inherit none. Closing is the
/// owner's job (``close()``), once.
package struct FileDescriptor: Hashable, Sendable {
  /// How ``open(_:_:creatingWith:)`` opens a file.
  package struct OpenOptions: OptionSet, Sendable {
    package let rawValue: Int32

    package init(rawValue: Int32) {
      self.rawValue = rawValue
    }

    /// Read only (`O_RDONLY`, the default).
    package static let readOnly: OpenOptions = []
    /// Write only (`O_WRONLY`).
    static let writeOnly = OpenOptions(rawValue: O_WRONLY)
    /// Read and write (`O_RDWR`).
    static let readWrite = OpenOptions(rawValue: O_RDWR)
    /// Create the file when missing (`O_CREAT`), with the mode given.
    static let create = OpenOptions(rawValue: O_CREAT)
    /// Every write goes to the end of the file, as one step of the kernel (`O_APPEND`).
    static let append = OpenOptions(rawValue: O_APPEND)
    /// With ``create``: fail with ``Errno/fileExists`` when the file exists (`O_EXCL`).
    static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
    /// Fail with ``Errno/tooManySymbolicLinkLevels`` when the path is a symbolic link
    /// (`O_NOFOLLOW`).
    package static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    /// Never wait: opening a named pipe does not wait for a writer, reading it not for data
    /// (`O_NONBLOCK`).
    package static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
    /// Fail with `ENOTDIR` unless the path is a folder (`O_DIRECTORY`), opened to list it
    /// (``namesInFolder()``) or to open its entries (``open(_:relativeTo:_:)``).
    package static let directory = OpenOptions(rawValue: O_DIRECTORY)
  }

  /// The descriptor's number.
  package let rawValue: Int32

  /// The descriptor numbered `rawValue`, opened elsewhere.
  package init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// Opens the file at `path`.
  ///
  /// - Parameters:
  ///   - options: How; `O_CLOEXEC` is always added.
  ///   - mode: The permission bits of a file ``OpenOptions/create`` makes (minus the umask).
  static func open(
    _ path: String, _ options: OpenOptions = .readOnly, creatingWith mode: mode_t = 0
  )
    throws(Errno) -> FileDescriptor
  {
    let flags = options.rawValue | O_CLOEXEC
    return FileDescriptor(
      rawValue: try Errno.retryingInterrupts { Glibc.open(path, flags, mode) })
  }

  /// Opens `name`, given as the bytes the kernel takes (a name that is not UTF-8 included),
  /// relative to the open folder `folder` (`openat(2)`): whatever was renamed or put in place of
  /// the folder's path since it was opened, `name` is looked up in the folder opened. An absolute
  /// `name` is opened as it is; with no `folder`, a relative one in the working folder.
  ///
  /// - Parameters:
  ///   - options: How (``OpenOptions/noFollow`` refuses a symbolic link with
  ///     ``Errno/tooManySymbolicLinkLevels``, ``OpenOptions/directory`` anything but a folder);
  ///     `O_CLOEXEC` is always added.
  /// - Throws: The error of `openat(2)`.
  package static func open(
    _ name: [UInt8], relativeTo folder: FileDescriptor? = nil, _ options: OpenOptions = .readOnly
  ) throws(Errno) -> FileDescriptor {
    let flags = options.rawValue | O_CLOEXEC
    let folder = folder?.rawValue ?? AT_FDCWD
    return FileDescriptor(
      rawValue: try name.withCPath { path throws(Errno) in
        try Errno.retryingInterrupts { openat(folder, path, flags) }
      })
  }

  /// The names in the open folder, `.` and `..` included, as the bytes the kernel gives
  /// (`fdopendir(3)` on a copy of the descriptor, `readdir(3)`), in the order it gives them; nil
  /// when the folder cannot be listed. The descriptor stays open.
  package func namesInFolder() -> [[UInt8]]? {
    // `closedir` closes the descriptor it is given: it gets a copy.
    let copy = dup(rawValue)
    guard copy >= 0 else { return nil }
    guard let folder = fdopendir(copy) else {
      _ = Glibc.close(copy)
      return nil
    }
    return FileSystem.names(in: folder)
  }

  /// Closes the descriptor; it must not be used afterwards.
  package func close() {
    _ = Glibc.close(rawValue)
  }

  /// Reads up to `count` bytes into `buffer` (one `read(2)`, made again when a signal interrupts
  /// it).
  ///
  /// - Returns: How many bytes were read; 0 at the end of the file.
  /// - Throws: The error, ``Errno/wouldBlock`` for a non-blocking descriptor with nothing to read.
  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(Errno) -> Int {
    try Errno.retryingInterrupts { Glibc.read(rawValue, buffer, count) }
  }

  /// Reads up to `count` bytes into `buffer` from byte `offset` of the file, leaving the
  /// descriptor's position where it was (one `pread(2)`, made again when a signal interrupts it).
  ///
  /// - Returns: How many bytes were read; 0 at the end of the file.
  /// - Throws: The error.
  func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) throws(Errno) -> Int {
    try Errno.retryingInterrupts { Glibc.pread(rawValue, buffer, count, off_t(offset)) }
  }

  /// Writes all of `bytes`, in as many `write(2)` calls as it takes.
  func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      offset += try Errno.retryingInterrupts {
        Glibc.write(rawValue, base + offset, bytes.count - offset)
      }
    }
  }

  /// Waits until the file's data and metadata are on the storage device (`fsync(2)`).
  func synchronize() throws(Errno) {
    try Errno.retryingInterrupts { fsync(rawValue) }
  }

  /// The status of the open file (`fstat(2)`): the file opened, whatever the path names now.
  package func stat() throws(Errno) -> Stat {
    var status = Glibc.stat()
    try Errno.retryingInterrupts { fstat(rawValue, &status) }
    return Stat(status)
  }

  /// Sets the file's permission bits (`fchmod(2)`).
  func setPermissions(_ mode: mode_t) throws(Errno) {
    try Errno.retryingInterrupts { fchmod(rawValue, mode) }
  }

  /// Takes an exclusive `flock(2)` lock on the file, waiting while another open file
  /// description holds one.
  func lockExclusively() throws(Errno) {
    try Errno.retryingInterrupts { flock(rawValue, LOCK_EX) }
  }

  /// Takes a shared `flock(2)` lock on the file, waiting while another open file description
  /// holds an exclusive one.
  func lockShared() throws(Errno) {
    try Errno.retryingInterrupts { flock(rawValue, LOCK_SH) }
  }

  /// Takes a shared `flock(2)` lock on the file if no other open file description holds an
  /// exclusive one.
  ///
  /// - Returns: Whether the lock was taken.
  func tryLockShared() -> Bool {
    (try? Errno.retryingInterrupts { flock(rawValue, LOCK_SH | LOCK_NB) }) != nil
  }

  /// Releases this open file description's `flock(2)` lock (`LOCK_UN`), before the descriptor
  /// is closed: a lock lives as long as any descriptor of its open file description (one a
  /// forked child inherited, or one a failed `close` left open), and a lock left held would make
  /// this process's next writer wait for itself.
  func unlock() {
    _ = try? Errno.retryingInterrupts { flock(rawValue, LOCK_UN) }
  }

  /// Takes an exclusive `flock(2)` lock on the file if no other open file description holds one.
  ///
  /// - Returns: Whether the lock was taken.
  func tryLockExclusively() -> Bool {
    (try? Errno.retryingInterrupts { flock(rawValue, LOCK_EX | LOCK_NB) }) != nil
  }
}

extension [UInt8] {
  /// Calls `body` with the bytes as a C string (a NUL after them): a path or name as the kernel
  /// takes it, whatever its encoding.
  func withCPath<Result, Failure: Error>(
    _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try (self + [0]).withUnsafeBufferPointer { bytes throws(Failure) in
      try bytes.withMemoryRebound(to: CChar.self) { path throws(Failure) in
        try body(path.baseAddress!)
      }
    }
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// What `stat(2)` tells of a file: its kind, permission bits, size, device and inode, and its
/// nanosecond modification and status-change times.
package struct FileStatus {
  /// The kinds of files, from the file type bits of the mode.
  package enum Kind: Equatable, Sendable {
    case regularFile, folder, symbolicLink, characterDevice, blockDevice, namedPipe, socket
    case unknown
  }

  private let status: stat

  init(_ status: stat) {
    self.status = status
  }

  /// The status of the file at `path`, symbolic links followed (`stat(2)`).
  static func ofFile(atPath path: String) throws(Errno) -> FileStatus {
    var status = stat()
    try Errno.retryingInterrupts { stat(path, &status) }
    return FileStatus(status)
  }

  /// The status of `path` itself, a symbolic link not followed (`lstat(2)`).
  static func ofLink(atPath path: String) throws(Errno) -> FileStatus {
    var status = stat()
    try Errno.retryingInterrupts { lstat(path, &status) }
    return FileStatus(status)
  }

  /// The kind of file, from the file type bits of its mode.
  package var kind: Kind {
    switch status.st_mode & S_IFMT {
    case S_IFREG: .regularFile
    case S_IFDIR: .folder
    case S_IFLNK: .symbolicLink
    case S_IFCHR: .characterDevice
    case S_IFBLK: .blockDevice
    case S_IFIFO: .namedPipe
    case S_IFSOCK: .socket
    default: .unknown
    }
  }

  /// The permission bits, with set-user-ID, set-group-ID and sticky (`mode & 0o7777`).
  var permissions: mode_t { status.st_mode & 0o7777 }
  /// The size in bytes.
  package var size: Int { Int(status.st_size) }
  /// The device the file is on.
  var device: UInt64 { UInt64(status.st_dev) }
  /// The file's inode number on its device.
  var inode: UInt64 { UInt64(status.st_ino) }
  /// When its contents last changed.
  var modified: timespec { status.st_mtim }
  /// When its contents, name or attributes last changed (no program can set it back).
  var statusChanged: timespec { status.st_ctim }

  /// Whether both name the same file (device and inode).
  func isSameFile(as other: FileStatus) -> Bool {
    device == other.device && inode == other.inode
  }
}

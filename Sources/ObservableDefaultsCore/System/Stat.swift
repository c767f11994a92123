#if canImport(Glibc)
  import Glibc
#endif

/// The file types of the file type bits of a mode, named as swift-system's `FileType`.
package enum FileType: Equatable, Sendable {
  case regular, directory, symbolicLink, characterSpecial, blockSpecial, fifo, socket
  case unknown
}

/// What `stat(2)` tells of a file: its type, permission bits, size, device and inode, and its
/// nanosecond modification and status-change times (swift-system's `Stat`).
package struct Stat {
  private let status: stat

  init(_ status: stat) {
    self.status = status
  }

  /// The status of the file at `path` (`stat(2)`), or of `path` itself when it is a symbolic
  /// link and `followTargetSymlink` is false (`lstat(2)`).
  init(_ path: String, followTargetSymlink: Bool = true) throws(Errno) {
    var status = stat()
    if followTargetSymlink {
      try Errno.retryingInterrupts { stat(path, &status) }
    } else {
      try Errno.retryingInterrupts { lstat(path, &status) }
    }
    self.init(status)
  }

  /// The type of file, from the file type bits of its mode.
  package var type: FileType {
    switch status.st_mode & S_IFMT {
    case S_IFREG: .regular
    case S_IFDIR: .directory
    case S_IFLNK: .symbolicLink
    case S_IFCHR: .characterSpecial
    case S_IFBLK: .blockSpecial
    case S_IFIFO: .fifo
    case S_IFSOCK: .socket
    default: .unknown
    }
  }

  /// The permission bits, with set-user-ID, set-group-ID and sticky (`mode & 0o7777`).
  var permissions: mode_t { status.st_mode & 0o7777 }
  /// The size in bytes.
  package var size: Int { Int(status.st_size) }
  /// The device the file is on.
  var deviceID: UInt64 { UInt64(status.st_dev) }
  /// The file's inode number on its device.
  var inode: UInt64 { UInt64(status.st_ino) }
  /// When its contents last changed.
  var modified: timespec { status.st_mtim }
  /// When its contents, name or attributes last changed (no program can set it back).
  var statusChanged: timespec { status.st_ctim }

  /// Whether both name the same file (device and inode).
  func isSameFile(as other: Stat) -> Bool {
    deviceID == other.deviceID && inode == other.inode
  }
}

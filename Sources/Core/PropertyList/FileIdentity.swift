import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What tells one version of a file on disk from another: its device, inode, size and the
/// nanosecond modification and status-change times.
///
/// An atomic replacement makes a new inode; a write in place changes the size or the times (and
/// always the status-change time, which no program can set back). Two equal identities therefore
/// mean the bytes were not changed in between, without reading them.
struct FileIdentity: Equatable, Sendable {
  private let device: UInt64
  private let inode: UInt64
  private let size: Int64
  private let modified: timespec
  private let statusChanged: timespec

  init(_ status: stat) {
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    size = Int64(status.st_size)
    modified = status.st_mtim
    statusChanged = status.st_ctim
  }

  /// The identity of the file at `path` (symbolic links followed), or nil when there is none.
  static func ofFile(atPath path: String) -> FileIdentity? {
    var status = stat()
    return stat(path, &status) == 0 ? FileIdentity(status) : nil
  }

  static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool {
    lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
      && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
      && lhs.statusChanged.tv_sec == rhs.statusChanged.tv_sec
      && lhs.statusChanged.tv_nsec == rhs.statusChanged.tv_nsec
  }
}

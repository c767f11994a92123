import Foundation

/// What tells one version of a file on disk from another: its device, inode, size and the
/// nanosecond modification and status-change times.
///
/// An atomic replacement makes a new inode; a write in place changes the size or the times (and
/// the status-change time, which no program can set back) — but only when the clock has moved on
/// by the file system's timestamp granularity: the kernel stamps files with a coarse clock
/// (a few milliseconds), ext4 with 128-byte inodes and FAT by the second or two, network and
/// FUSE file systems by their server's rules. A same-size rewrite in place within one such tick
/// keeps every field. So equal identities prove nothing about the bytes until the identity is
/// ``isSettled(at:)``: see ``PropertyListFile`` for how a version is confirmed.
struct FileIdentity: Equatable, Sendable {
  private let device: UInt64
  private let inode: UInt64
  private let size: Int64
  private let modified: timespec
  private let statusChanged: timespec

  init(_ status: Stat) {
    device = status.deviceID
    inode = status.inode
    size = Int64(status.size)
    modified = status.modified
    statusChanged = status.statusChanged
  }

  /// How long after a file's last timestamp its timestamps are sure to tell a later write from
  /// it: 3 seconds, above the coarsest local granularity (FAT's 2 s) with room for the
  /// kernel's coarse clock lagging the real one. (A network file system whose server clock runs
  /// behind the client's by more is not covered; such a file is confirmed by its bytes until
  /// then.)
  static let settlingSeconds = 3

  /// Whether a write to the file made at `moment` or later (wall clock) would change this
  /// identity: `moment` is at least ``settlingSeconds`` past both its times.
  func isSettled(at moment: timespec) -> Bool {
    let latest = max(modified.tv_sec, statusChanged.tv_sec)
    return Int(moment.tv_sec) > Int(latest) + Self.settlingSeconds
  }

  /// Whether the file had no bytes.
  var isEmpty: Bool { size == 0 }

  /// The file's size, in bytes.
  var byteCount: Int { Int(size) }

  /// The wall clock now.
  static func now() -> timespec {
    SystemClock.now()
  }

  /// The identity of the file open as `descriptor`, or nil when `fstat` fails.
  static func of(descriptor: FileDescriptor) -> FileIdentity? {
    (try? descriptor.stat()).map(FileIdentity.init)
  }

  /// The identity of the file at `path` (symbolic links followed), or nil when there is none.
  static func ofFile(atPath path: String) -> FileIdentity? {
    (try? Stat(path)).map(FileIdentity.init)
  }

  static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool {
    lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
      && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
      && lhs.statusChanged.tv_sec == rhs.statusChanged.tv_sec
      && lhs.statusChanged.tv_nsec == rhs.statusChanged.tv_nsec
  }
}

import Foundation
import TestSupport

/// A folder on a file system whose timestamps have 1-second granularity: an ext4 image made with
/// 128-byte inodes (`mkfs.ext4 -I 128`), loop-mounted. A same-size rewrite in place within one
/// second keeps the file's device, inode, size, modification and status-change times there
/// (`/work/shared/README.md` fact 20), as on network and FUSE file systems.
///
/// Mounting needs root: ``isAvailable`` tells. The image is unmounted and removed with
/// ``remove()`` or the last reference.
final class CoarseTimestampFolder: @unchecked Sendable {
  /// Whether this process may mount one (it runs as root and `mkfs.ext4` is installed).
  static var isAvailable: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/mkfs.ext4")
  }

  private let scratch: TemporaryFolder
  /// The mounted folder.
  let url: URL
  private var isMounted = false

  /// Makes a 16 MiB image and mounts it.
  ///
  /// - Throws: ``Failure`` naming the command that failed and what it printed.
  init() throws {
    scratch = try TemporaryFolder(prefix: "coarse-timestamps")
    let image = scratch.file("ext4.img").path
    url = scratch.file("mount")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try Self.run("truncate", ["-s", "16M", image])
    try Self.run("mkfs.ext4", ["-q", "-F", "-I", "128", image])
    try Self.run("mount", ["-o", "loop", image, url.path])
    isMounted = true
  }

  deinit { remove() }

  /// Unmounts the image and removes it.
  func remove() {
    if isMounted, (try? Self.run("umount", [url.path])) != nil { isMounted = false }
    if !isMounted { scratch.remove() }
  }

  /// The URL of `name` inside the mounted folder.
  func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private static func run(_ command: String, _ arguments: [String]) throws {
    let result = try ChildProcess.runCommand(command, arguments)
    guard result.status == 0 else {
      throw Failure(description: "\(command) \(arguments): \(result.status) \(result.error)")
    }
  }
}

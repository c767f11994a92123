import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a property-list file's bytes, refusing what is not a regular file with a reason people
/// understand (Foundation's `Data(contentsOf:)` reports a folder as "error 256" and reads
/// `/dev/zero` until memory runs out).
package enum FileContents {
  /// The largest file read by default (256 MiB): far above any preferences file.
  package static let maximumSize = 256 << 20

  /// The bytes of the file at `url` (symbolic links followed) and the identity of the version
  /// read, or nil when there is no file (also for a symbolic link whose target does not exist).
  ///
  /// - Throws: ``PropertyListError`` of kind `.unreadable` naming the reason: permission denied,
  ///   a symbolic link loop, a folder, a device or other non-regular file, a file above
  ///   `maximumSize` bytes (a whole number of MiB), an I/O error.
  static func read(_ url: URL, maximumSize: Int = maximumSize) throws -> (
    data: Data, identity: FileIdentity
  )? {
    func failure(_ reason: String) -> PropertyListError {
      PropertyListError(file: url, kind: .unreadable, reason: reason)
    }
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      switch errno {
      case ENOENT: return nil
      case ELOOP: throw failure("a symbolic link loop")
      default: throw failure(systemError())
      }
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw failure(systemError()) }
    let type = status.st_mode & S_IFMT
    guard type == S_IFREG else {
      throw failure(
        type == S_IFDIR
          ? "it is a folder, not a file" : "it is not a regular file (\(describe(type)))")
    }
    guard Int(status.st_size) <= maximumSize else {
      throw failure("it is larger than \(maximumSize >> 20) MiB")
    }
    var data = Data(count: Int(status.st_size))
    var length = 0
    while true {
      if length == data.count {
        guard data.count < maximumSize else {
          throw failure("it is larger than \(maximumSize >> 20) MiB")
        }
        data.count = min(max(data.count * 2, 4096), maximumSize + 1)
      }
      let count = data.withUnsafeMutableBytes { buffer in
        Glibc.read(descriptor, buffer.baseAddress! + length, buffer.count - length)
      }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw failure(systemError())
      }
      if count == 0 { break }
      length += count
    }
    data.count = length
    return (data, FileIdentity(status))
  }

  /// The bytes of ``read(_:maximumSize:)``, for files other than property lists of a store.
  package static func bytes(of url: URL, maximumSize: Int) throws -> Data? {
    try read(url, maximumSize: maximumSize)?.data
  }

  private static func describe(_ type: mode_t) -> String {
    switch type {
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a named pipe"
    case S_IFSOCK: "a socket"
    default: "not a file"
    }
  }
}

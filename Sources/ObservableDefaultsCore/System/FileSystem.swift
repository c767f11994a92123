#if canImport(Glibc)
  import Glibc
#endif

/// The calls on paths that open nothing: renaming and removing files, making folders, checking
/// access, following symbolic links and listing a folder.
package enum FileSystem {
  /// Renames `source` to `destination`, atomically replacing a file there (`rename(2)`).
  static func rename(_ source: String, to destination: String) throws(Errno) {
    try Errno.retryingInterrupts { Glibc.rename(source, destination) }
  }

  /// Renames `source` to `destination` only when nothing is at `destination`: the kernel
  /// checks and renames at once (`renameat2(2)` with `RENAME_NOREPLACE`), or, on a file system
  /// that does not take that flag, `link(2)` (which never replaces a file) and `unlink(2)` of
  /// `source`; on one without hard links either, a `lstat(2)` that finds nothing, then
  /// `rename(2)`.
  ///
  /// - Throws: ``Errno/fileExists`` when something is at `destination` (nothing is renamed);
  ///   the error of the calls otherwise.
  static func renameWithoutReplacing(_ source: String, to destination: String) throws(Errno) {
    if let renameat2 = renameWithFlags {
      do {
        try Errno.retryingInterrupts {
          renameat2(AT_FDCWD, source, AT_FDCWD, destination, renameNoReplace)
        }
        return
      } catch {
        // EINVAL or ENOSYS: this file system (or kernel) does not take the flag.
        guard error.rawValue == EINVAL || error.rawValue == ENOSYS else { throw error }
      }
    }
    do {
      try Errno.retryingInterrupts { link(source, destination) }
    } catch  where error.rawValue == EPERM || error.rawValue == EOPNOTSUPP {
      // No hard links here either (FAT, some network and FUSE file systems): the check and the
      // rename are two calls, as they were before the flag existed.
      guard (try? Stat(destination, followTargetSymlink: false)) == nil else { throw .fileExists }
      return try rename(source, to: destination)
    }
    removeFile(source)
  }

  private typealias RenameWithFlags =
    @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
  /// glibc's `renameat2` (2.28 and later), looked up with `dlsym`: the Glibc module does not
  /// import it (`<stdio.h>` declares it under `_GNU_SOURCE`).
  private static let renameWithFlags: RenameWithFlags? = dlsym(
    UnsafeMutableRawPointer(bitPattern: 0), "renameat2"
  ).map { unsafeBitCast($0, to: RenameWithFlags.self) }
  /// `RENAME_NOREPLACE` of `<linux/fs.h>`.
  private static let renameNoReplace: UInt32 = 1

  /// Removes the file at `path` (`unlink(2)`; a symbolic link itself, not its target).
  ///
  /// - Returns: Whether it was removed.
  @discardableResult
  static func removeFile(_ path: String) -> Bool {
    unlink(path) == 0
  }

  /// Removes the entry at `path`, given as the bytes the kernel takes (`unlink(2)`; a symbolic
  /// link itself, not its target).
  ///
  /// - Throws: Why not.
  package static func removeFile(bytes path: [UInt8]) throws(Errno) {
    _ = try path.withCPath { path throws(Errno) in try Errno.retryingInterrupts { unlink(path) } }
  }

  /// Removes the folder at `path`, given as the bytes the kernel takes, when it is empty
  /// (`rmdir(2)`: never anything in it).
  ///
  /// - Throws: Why not; `ENOTEMPTY` when something is in it.
  package static func removeEmptyFolder(bytes path: [UInt8]) throws(Errno) {
    _ = try path.withCPath { path throws(Errno) in try Errno.retryingInterrupts { rmdir(path) } }
  }

  /// Makes the folder `path`, its parent existing (`mkdir(2)`).
  ///
  /// - Parameter mode: Its permission bits (minus the umask).
  /// - Throws: The error; ``Errno/fileExists`` when something is there already.
  static func makeFolder(_ path: String, mode: mode_t) throws(Errno) {
    try Errno.retryingInterrupts { mkdir(path, mode) }
  }

  /// Checks that this process may write the file at `path` (`access(2)` with `W_OK`: real user
  /// and group, read-only mounts included).
  ///
  /// - Throws: Why not.
  static func checkWritable(_ path: String) throws(Errno) {
    try Errno.retryingInterrupts { access(path, W_OK) }
  }

  /// What the symbolic link at `path` points to, as written in it (`readlink(2)`), or nil when
  /// `path` is no symbolic link or cannot be read.
  static func destinationOfSymbolicLink(atPath path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The absolute path of the existing `path` with every symbolic link, `.` and `..` resolved
  /// (`realpath(3)`), or nil when it does not exist or cannot be resolved.
  static func resolvedPath(_ path: String) -> String? {
    (try? resolvedPath(bytes: Array(path.utf8))).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The absolute path of the existing `path`, given and returned as the bytes the kernel takes,
  /// with every symbolic link, `.` and `..` resolved (`realpath(3)`).
  ///
  /// - Throws: Why it cannot be resolved: ``Errno/noSuchFileOrDirectory`` when it (or what a link in it
  ///   leads to) does not exist.
  package static func resolvedPath(bytes path: [UInt8]) throws(Errno) -> [UInt8] {
    guard let resolved = path.withCPath({ realpath($0, nil) }) else { throw Errno.current }
    defer { free(resolved) }
    return Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
  }

  /// The names in the folder at `path`, `.` and `..` included (`opendir(3)`, `readdir(3)`), or
  /// nil when it cannot be opened.
  static func namesInFolder(atPath path: String) -> [String]? {
    guard let folder = opendir(path) else { return nil }
    return names(in: folder).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The names `readdir(3)` gives for the open folder stream `folder`, as bytes; closes it
  /// (`closedir(3)`).
  static func names(in folder: OpaquePointer) -> [[UInt8]] {
    defer { closedir(folder) }
    var names: [[UInt8]] = []
    while let entry = readdir(folder) {
      names.append(withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) })
    }
    return names
  }
}

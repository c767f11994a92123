package import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Creates folders for files only their owner may read: each missing folder of a path is made
/// with mode 0700 (the XDG Base Directory specification asks this of the folders it names, and
/// Foundation makes its preferences folder so); existing folders keep their mode.
package enum PrivateFolder {
  /// Creates `folder` and its missing parents (mode 0700 minus the umask).
  ///
  /// - Parameter file: The file the folder is for, named in errors.
  /// - Throws: ``PropertyListError`` of kind `.unwritable`.
  package static func create(_ folder: URL, for file: URL) throws {
    let path = folder.standardizedFileURL.path
    var status = stat()
    if stat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw PropertyListError(file: file, kind: .unwritable, reason: "\(path) is not a folder")
      }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path { try create(URL(fileURLWithPath: parent), for: file) }
    guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
      throw PropertyListError(
        file: file, kind: .unwritable, reason: "folder \(path): " + systemError())
    }
  }
}

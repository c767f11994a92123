package import Foundation

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
    if let status = try? Stat(path) {
      guard status.type == .directory else {
        throw PropertyListError(file: file, kind: .unwritable, reason: "\(path) is not a folder")
      }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path { try create(URL(fileURLWithPath: parent), for: file) }
    do {
      try FileSystem.makeFolder(path, mode: 0o700)
    } catch {
      guard error == .fileExists else {
        throw PropertyListError(file: file, kind: .unwritable, reason: "folder \(path): \(error)")
      }
    }
  }
}

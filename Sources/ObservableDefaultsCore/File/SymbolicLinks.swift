import Foundation

/// Where a write to a path lands: the path with its symbolic links resolved, including a link
/// whose target does not exist yet (Foundation's `resolvingSymlinksInPath()` leaves such a link
/// as it is, so writing would replace the link itself with a file).
enum SymbolicLinks {
  /// Links followed at most (Linux's own limit, `MAXSYMLINKS`, is 40).
  private static let maximumLinks = 40

  /// The file `url` names once every symbolic link is followed (its folder's links resolved by
  /// `realpath(3)` when the folder exists).
  ///
  /// - Throws: ``PropertyListError`` of kind `.unwritable` for a symbolic link loop.
  static func target(of url: URL) throws -> URL {
    var path = url.standardizedFileURL.path
    for _ in 0...maximumLinks {
      let folder = realFolder(of: path)
      path = folder == "/" ? "/" + lastComponent(path) : folder + "/" + lastComponent(path)
      guard (try? Stat(path, followTargetSymlink: false))?.type == .symbolicLink,
        let link = FileSystem.destinationOfSymbolicLink(atPath: path)
      else {
        return URL(fileURLWithPath: path)
      }
      path = link.hasPrefix("/") ? link : folder + "/" + link
      path = URL(fileURLWithPath: path).standardizedFileURL.path
    }
    throw PropertyListError(file: url, kind: .unwritable, reason: "a symbolic link loop")
  }

  /// `target(of:)`, or the standardized `url` when it is a loop (reading it reports the loop).
  static func identity(of url: URL) -> URL {
    (try? target(of: url)) ?? url.standardizedFileURL
  }

  private static func realFolder(of path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    return FileSystem.resolvedPath(folder.isEmpty ? "/" : folder) ?? folder
  }

  private static func lastComponent(_ path: String) -> String {
    (path as NSString).lastPathComponent
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// Whether a file that other users' programs read and trust (a system-wide defaults or
/// mandatory file an administrator wrote) could have been written by anyone: the one home of the
/// rule "a file or folder writable by others is not trusted".
///
/// A folder or file whose mode lets others write (`o+w`, `/tmp`'s `1777` included: the sticky bit
/// keeps others from replacing a file, not from adding one) could hold a file any user put there,
/// so its values would be anyone's. A symbolic link is followed, and the file and folder it
/// leads to are checked too: a link to a file in a folder writable by others is refused the same
/// way.
package enum SharedFolderTrust {
  /// Why the file at `path` (under `root`, which is checked with every folder between) is not
  /// trusted, or nil when neither it nor a folder on its way is writable by others. A missing
  /// file or folder is no reason.
  ///
  /// - Parameters:
  ///   - path: The file, an absolute path below `root`.
  ///   - root: The first folder checked (a folder of `$XDG_CONFIG_DIRS`).
  /// - Returns: A sentence naming the file or folder, its mode and the fix, e.g.
  ///   `/tmp/x is writable by others (mode 1777; chmod o-w /tmp/x)`.
  package static func problem(of path: String, under root: String) -> String? {
    var folder = root.hasSuffix("/") ? String(root.dropLast()) : root
    if let reason = writableByOthers(folder) { return reason }
    let rest = path.dropFirst(folder.count + 1).split(separator: "/")
    for component in rest.dropLast() {
      // The concrete `append`s: `+` of a `Substring` is the generic one, whose first use looks
      // up `Substring`'s conformances at run time (two walks over every conformance record of
      // the program, 0.24 M instructions of a one-key `read`; callgrind).
      folder.append("/")
      folder.append(contentsOf: component)
      if let reason = writableByOthers(folder) { return reason }
    }
    guard (try? Stat(path, followTargetSymlink: false))?.type == .symbolicLink,
      let target = FileSystem.resolvedPath(path)
    else { return writableByOthers(path) }
    // The link's target is named, never the link: `chmod o-w` of a link changes its target,
    // which may be a device (a link to /dev/zero was told to run `chmod o-w` on the link).
    if let type = (try? Stat(target))?.type, type != .regular {
      return "it is a symbolic link to \(target), which is not a regular file"
    }
    let targetFolder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
    return (writableByOthers(target) ?? writableByOthers(targetFolder.isEmpty ? "/" : targetFolder))
      .map { "it is a symbolic link to \(target), and \($0)" }
  }

  /// `<path> is writable by others (mode …; chmod o-w <path>)` when the file or folder at
  /// `path` (links followed) lets others write, else nil (also when it does not exist).
  private static func writableByOthers(_ path: String) -> String? {
    guard let status = try? Stat(path),
      status.permissions & mode_t(S_IWOTH) != 0
    else { return nil }
    let mode = String(status.permissions, radix: 8)
    return "\(path) is writable by others (mode \(mode); chmod o-w \(path))"
  }
}

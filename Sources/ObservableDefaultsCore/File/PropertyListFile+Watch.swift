import Foundation

extension PropertyListFile {
  /// Calls `onChange` whenever the file may have been changed on disk, by this process or
  /// another one, until the returned observation is cancelled or released.
  ///
  /// The folder is watched with inotify, not the file, so atomic replacements (a new inode) and
  /// files created later are seen. A symbolic link is resolved once, now: its target's folder is
  /// watched. The callback runs on an internal queue, possibly for a change that left the
  /// values as they were; read the file again (``read()``) to see what changed. Nothing is
  /// reported when the folder does not exist.
  ///
  /// - Parameter onChange: Called on an internal queue after each completed write, rename or
  ///   deletion of the file.
  /// - Returns: The observation; the callbacks stop when it is cancelled or released.
  public func watch(onChange: @escaping @Sendable () -> Void) -> ObservationToken {
    DirectoryWatcher.shared.watch(fileAt: SymbolicLinks.identity(of: url), onChange: onChange)
  }
}

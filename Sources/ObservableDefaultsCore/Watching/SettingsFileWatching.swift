/// When this process starts watching settings files (suites, system layers, cloud containers)
/// for changes made by other processes.
package enum SettingsFileWatching {
  /// Watches every settings file from now on at once, for a program that stays open to show
  /// changes as they happen (an editor, a `watch` command). Without it, the files are watched
  /// from 0.1 s after the first one is opened (see `DirectoryWatcher`), so that a program that
  /// exits sooner does not wait at its exit for the kernel to free an inotify watch.
  package static func startNow() {
    DirectoryWatcher.shared.startWatching()
  }
}

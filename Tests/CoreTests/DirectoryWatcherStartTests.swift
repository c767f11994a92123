import Foundation
import ObservableDefaultsTesting
import Synchronization
import Testing

@testable import ObservableDefaultsCore

/// The watcher's late start: a program that exits before it adds no inotify watch (so its exit
/// does not wait for the kernel to free one), and a change made before it is still reported.
@Suite struct DirectoryWatcherStartTests {
  /// A watcher of its own that starts only when the test starts it (kept for the process: its
  /// dispatch source refers to it).
  static let watcher = DirectoryWatcher(startDelay: .seconds(3600))

  @Test func aChangeMadeBeforeTheStartIsReportedWhenTheWatcherStarts() async throws {
    let folder = try TemporaryFolder(prefix: "watcher-start")
    let file = folder.file("suite.plist")
    try Data("one".utf8).write(to: file)
    let calls = Mutex(0)
    let watch = Self.watcher.watch(fileAt: file) { calls.withLock { $0 += 1 } }
    defer { watch.cancel() }
    try Data("two".utf8).write(to: file)
    #expect(Self.watcher.watchedFolderCount == 0)
    #expect(calls.withLock { $0 } == 0)

    Self.watcher.startWatching()
    #expect(Self.watcher.watchedFolderCount == 1)
    #expect(calls.withLock { $0 } == 1)
    // Started: a later change is reported by inotify.
    try Data("three".utf8).write(to: file)
    #expect(await poll { calls.withLock { $0 } >= 2 })
  }
}

import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A write makes one change notice, a rename; the notice of a process's own write reads nothing
/// of the file it just wrote and hashed, and a write in place after it is still read (issue 42,
/// item 5: at 50 MB each notice read and hashed the 68.6 MB XML text again).
@Suite struct OwnWriteNoticeTests {
  /// A watcher of its own, started at once (kept for the process: its dispatch source refers
  /// to it).
  static let watcher = DirectoryWatcher(startDelay: .milliseconds(0))

  /// The events of each call of the watcher for the file at `url`, until `sentinel` (a file of
  /// the same folder) is written after `change`: inotify delivers one instance's events in
  /// order, so every event of `change` came before the sentinel's.
  private func events(of url: URL, during change: () throws -> Void) async throws
    -> [DirectoryWatcher.Events]
  {
    let sentinel = url.deletingLastPathComponent().appendingPathComponent("sentinel")
    let calls = Mutex<[DirectoryWatcher.Events]>([])
    let sentinelSeen = Mutex(false)
    let watch = Self.watcher.watch(fileAt: url) { events in calls.withLock { $0.append(events) } }
    defer { watch.cancel() }
    let sentinelWatch = Self.watcher.watch(fileAt: sentinel) { events in
      if events == .anyChange { sentinelSeen.withLock { $0 = true } }
    }
    defer { sentinelWatch.cancel() }
    // The watch's first call (its start).
    #expect(await poll { calls.withLock { $0.count } == 1 && sentinelSeen.withLock { $0 } })
    calls.withLock { $0 = [] }
    sentinelSeen.withLock { $0 = false }
    try change()
    try Data("sentinel".utf8).write(to: sentinel)
    #expect(await poll { sentinelSeen.withLock { $0 } })
    return calls.withLock { $0 }
  }

  @Test func aWriteIsOneRenameOntoTheFile() async throws {
    let folder = try TemporaryFolder(prefix: "own-write-notice")
    let url = folder.file("suite.plist")
    _ = try PropertyListFile(url: url).apply(["a": .set("1")])
    let events = try await events(of: url) {
      _ = try PropertyListFile(url: url).apply(["a": .set("2")])
    }
    // With the written file closed after the rename, its close (IN_CLOSE_WRITE) named the file
    // too: [.anyChange] or [.replacedOnly, .anyChange].
    #expect(events == [.replacedOnly])
  }

  @Test func aWriteInPlaceIsAnyChange() async throws {
    let folder = try TemporaryFolder(prefix: "own-write-notice")
    let url = folder.file("suite.plist")
    _ = try PropertyListFile(url: url).apply(["a": .set("1")])
    let events = try await events(of: url) {
      let text = try Data(contentsOf: url)
      let descriptor = open(url.path, O_WRONLY)
      #expect(descriptor >= 0)
      _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
      close(descriptor)
    }
    #expect(events == [.anyChange])
  }

  /// Each flush confirms the version it replaces by its bytes (within seconds of the last
  /// write); the change notice of the flush's own rename then reads nothing.
  @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
  func theNoticeOfAFlushReadsNothing(format: PropertyListSerialization.PropertyListFormat)
    async throws
  {
    try await withTemporaryFolder { folder in
      let url = folder.file("flushes.plist")
      try foundationWrite(["a": "1"], to: url, format: format)
      let defaults = PropertyListDefaults(fileURL: url)
      // The watch's first call checks the file once, by its bytes.
      #expect(await poll { PropertyListCounters.counts(for: url).confirmations == 1 })
      for index in 1...5 {
        defaults.set(Data(repeating: UInt8(index), count: 100_000), forKey: "blob")
        try defaults.flush()
        #expect(
          await poll { PropertyListCounters.counts(for: url).confirmationsSkipped == index },
          "flush \(index)")
      }
      let counts = PropertyListCounters.counts(for: url)
      // The watch's first check, then one read of the file a flush: its check of the version it
      // replaces. Without the skip: 11, each notice's read too.
      #expect(counts.confirmations == 6, "\(counts)")
      #expect(counts.writes == 5 && counts.parses == 1, "\(counts)")
    }
  }

  /// Another program's write in place right after a flush, the same size: read and told,
  /// whether its close came with the flush's rename or after the flush's notice.
  @Test func aWriteInPlaceAfterAFlushIsRead() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("in-place.plist")
      try foundationWrite(["theirs": "xxxx"], to: url, format: .xml)
      let defaults = PropertyListDefaults(fileURL: url)
      #expect(await poll { PropertyListCounters.counts(for: url).confirmations == 1 })
      for trial in 0..<5 {
        let (old, new) = trial % 2 == 0 ? ("xxxx", "yyyy") : ("yyyy", "xxxx")
        defaults.set(trial, forKey: "mine")
        try defaults.flush()
        let text = try String(contentsOf: url, encoding: .utf8)
        let bytes = Array(text.replacingOccurrences(of: old, with: new).utf8)
        let descriptor = open(url.path, O_WRONLY)
        #expect(descriptor >= 0 && pwrite(descriptor, bytes, bytes.count, 0) == bytes.count)
        close(descriptor)
        #expect(await poll { defaults.string(forKey: "theirs") == new }, "trial \(trial)")
      }
    }
  }
}

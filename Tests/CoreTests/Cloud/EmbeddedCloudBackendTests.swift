import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// The on-disk container: where it lives, its file, a first sync after an unreadable container,
/// and two processes sharing it (`core-probe` started with `Process`).
@Suite(.serialized) struct EmbeddedCloudBackendTests {
  /// In a probe, whose environment the test sets; the fallback to the home folder is only
  /// computed (nothing is created in the real home).
  @Test func defaultStoreLivesUnderXDGDataHomeByProgramAndAccount() async throws {
    try await withTemporaryFolder { folder in
      let data = folder.file("data")
      let located = try CoreProbe.run(
        ["cloud-location", "open-default"],
        environment: ["XDG_DATA_HOME": data.path, CloudContainerDirectory.accountVariable: "bob"])
      let file = data.path + "/ObservableDefaults/CloudContainers/core-probe/bob/store.plist"
      #expect(located.output == file + "\n")
      #expect(FileManager.default.fileExists(atPath: (file as NSString).deletingLastPathComponent))
      // The home folder is `$HOME` (whatever the password database says: sandboxes and CI runners
      // give processes a private one).
      let home = folder.file("home").path
      let byDefault = try CoreProbe.run(
        ["cloud-location"],
        environment: [
          "HOME": home, "XDG_DATA_HOME": "relative/ignored",
          CloudContainerDirectory.accountVariable: "",
        ])
      #expect(
        byDefault.output == home
          + "/.local/share/ObservableDefaults/CloudContainers/core-probe/default/store.plist\n")
    }
  }

  @Test func theContainerFileHoldsValuesTimestampsAndRemovals() async throws {
    try await withTemporaryFolder { folder in
      let backend = EmbeddedCloudBackend(
        root: folder.url, container: "com.example/app", account: "me")
      #expect(backend.fileURL.path == folder.url.path + "/com.example_app/me/store.plist")
      let store = NSUbiquitousKeyValueStore(backend: backend)
      store.set("v", forKey: "kept")
      store.set("gone", forKey: "removed")
      store.removeObject(forKey: "removed")
      #expect(store.synchronize())
      let contents = try foundationRead(backend.fileURL)
      let records = try #require(contents["records"] as? [String: [String: Any]])
      #expect(records["kept"]?["value"] as? String == "v")
      #expect(records["kept"]?["time"] is Int)
      #expect(records["kept"]?["device"] is String)
      #expect(records["removed"] != nil)
      #expect(records["removed"]?["value"] == nil)
    }
  }

  @Test func writesWaitForAnUnreadableContainerThenArriveAfterAnInitialSync() async throws {
    try await withTemporaryFolder { folder in
      let url = EmbeddedCloudBackend(root: folder.url, container: "c").fileURL
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("garbage".utf8).write(to: url)
      let writes = CountingCloudBackend(EmbeddedCloudBackend(root: folder.url, container: "c"))
      let store = NSUbiquitousKeyValueStore(backend: writes)
      #expect(store.lastError != nil)
      let notifications = CloudNotificationLog(store)
      store.set("mine", forKey: "local")
      #expect(!store.synchronize())
      #expect(writes.saveCount == 0)
      #expect(try Data(contentsOf: url) == Data("garbage".utf8))

      // Another device's container replaces the unreadable file in one rename, so this device
      // sees one change: from unreadable to a container holding "remote".
      let elsewhere = folder.url.appendingPathComponent("elsewhere")
      let otherBackend = EmbeddedCloudBackend(root: elsewhere, container: "c")
      let other = NSUbiquitousKeyValueStore(backend: otherBackend)
      other.set("theirs", forKey: "remote")
      #expect(other.synchronize())
      #expect(rename(otherBackend.fileURL.path, url.path) == 0)
      #expect(await poll { !notifications.all.isEmpty })
      #expect(
        notifications.all == [
          .init(reason: NSUbiquitousKeyValueStoreInitialSyncChange, keys: ["remote"])
        ])
      let reader = EmbeddedCloudBackend(root: folder.url, container: "c")
      #expect(await poll { (try? reader.load())?.records["local"]?.value as? String == "mine" })
      #expect(await poll { store.lastError == nil })
      #expect(writes.savedKeys == [["local"]])
      #expect(store.lastError == nil)
    }
  }

  @Test func aWriteInOneProcessReachesAnotherWithinOneSecondAsAServerChange() async throws {
    try await withTemporaryFolder { folder in
      let store = NSUbiquitousKeyValueStore(
        backend: EmbeddedCloudBackend(root: folder.url, container: "shared"))
      store.set("mine", forKey: "local")
      #expect(store.synchronize())
      let notifications = CloudNotificationLog(store)
      let changes = DefaultsChangeLog()
      let observation = store.observe(changes.handler)
      let result = try CoreProbe.run(["cloud-set", folder.url.path, "shared", "remote", "theirs"])
      #expect(result.status == 0)
      let exited = Date()
      #expect(await poll { !notifications.all.isEmpty })
      #expect(Date().timeIntervalSince(exited) < 1)
      // Changes arrive in order: once a later write is there, nothing more of the first can come.
      #expect(
        try CoreProbe.run(["cloud-set", folder.url.path, "shared", "later", "x"]).status == 0)
      #expect(await poll { notifications.all.count >= 2 && changes.all.count >= 2 })
      #expect(
        notifications.all == [
          .init(reason: NSUbiquitousKeyValueStoreServerChange, keys: ["remote"]),
          .init(reason: NSUbiquitousKeyValueStoreServerChange, keys: ["later"]),
        ])
      #expect(
        changes.all == [
          DefaultsChange(keys: ["remote"], origin: .otherProcess),
          DefaultsChange(keys: ["later"], origin: .otherProcess),
        ])
      #expect(store.string(forKey: "remote") == "theirs")
      #expect(store.string(forKey: "local") == "mine")
      withExtendedLifetime(observation) {}
    }
  }

  @Test func aWriteInThisProcessReachesAWatchingProcessWithinOneSecond() async throws {
    try await withTemporaryFolder { folder in
      let store = NSUbiquitousKeyValueStore(
        backend: EmbeddedCloudBackend(root: folder.url, container: "shared"))
      store.set("before", forKey: "other")
      #expect(store.synchronize())
      let watcher = try CoreProbe.start(["cloud-watch", folder.url.path, "shared", "greeting", "1"])
      #expect(watcher.waitForLine("ready"))
      store.set("hello", forKey: "greeting")
      let result = watcher.finish()
      #expect(result.status == 0)
      #expect(result.output == "ready\nreason 0 keys greeting value hello\n")
    }
  }

  @Test func threeProcessRestartsWithoutEditsLeaveTheContainerFileUntouched() async throws {
    try await withTemporaryFolder { folder in
      #expect(try CoreProbe.run(["cloud-set", folder.url.path, "app", "k", "v"]).status == 0)
      let url = EmbeddedCloudBackend(root: folder.url, container: "app").fileURL
      let before = try FileManager.default.attributesOfItem(atPath: url.path)
      let bytes = try Data(contentsOf: url)
      for _ in 1...3 {
        #expect(try CoreProbe.run(["cloud-get", folder.url.path, "app", "k"]).output == "v\n")
      }
      let after = try FileManager.default.attributesOfItem(atPath: url.path)
      #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
      #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
      #expect(try Data(contentsOf: url) == bytes)
    }
  }
}

/// Issue 12, item 9: writes made while the container file does not parse are kept, across the
/// process's end, until it parses again.
@Suite struct CorruptContainerTests {
  @Test func writesMadeWhileTheContainerIsCorruptReachItOnceItIsReadable() async throws {
    try await withTemporaryFolder { folder in
      func device() -> NSUbiquitousKeyValueStore {
        NSUbiquitousKeyValueStore(backend: EmbeddedCloudBackend(root: folder.url, container: "c"))
      }
      let url = EmbeddedCloudBackend(root: folder.url, container: "c").fileURL
      var good = Data()
      do {
        let first = device()
        first.set("before", forKey: "a")
        #expect(first.synchronize())
        good = try Data(contentsOf: url)
        try Data("garbage".utf8).write(to: url)
        first.set("while corrupt", forKey: "b")
        #expect(!first.synchronize())
        #expect(first.syncStatus.pendingCount == 1)
        #expect((first.lastError as? PropertyListError)?.kind == .malformed)
      }
      // The first device is gone (as at exit): its write waits beside the container.
      #expect(
        FileManager.default.fileExists(
          atPath: url.deletingLastPathComponent().appendingPathComponent("pending.plist").path))
      #expect(
        try Data(contentsOf: url) == Data("garbage".utf8), "the corrupt file is not overwritten")
      try good.write(to: url)
      // A new device (as after a restart) finds the write once the container parses again.
      let second = device()
      #expect(second.string(forKey: "b") == "while corrupt")
      #expect(second.string(forKey: "a") == "before")
    }
  }

  /// A save of nothing newer does not rewrite the container file (`savingNothingNewerChangesNothing`
  /// of the conformance suite checks the cursor; this checks the file).
  @Test func savingNothingNewerLeavesTheFileUntouched() async throws {
    try await withTemporaryFolder { folder in
      let backend = EmbeddedCloudBackend(root: folder.url, container: "c")
      func record(_ value: String, at time: Int64) -> CloudRecord {
        CloudRecord(value: value, timestamp: CloudTimestamp(time: time, counter: 0, device: "d"))
      }
      try backend.save(["k": record("v", at: 5)])
      // A modification date in the past: any rewrite, even within the same clock tick, moves it.
      let past = Date(timeIntervalSince1970: 1_000_000_000)
      try FileManager.default.setAttributes(
        [.modificationDate: past], ofItemAtPath: backend.fileURL.path)
      let attributes = try FileManager.default.attributesOfItem(atPath: backend.fileURL.path)
      try backend.save(["k": record("v", at: 5)])
      try backend.save(["k": record("old", at: 4)])
      let after = try FileManager.default.attributesOfItem(atPath: backend.fileURL.path)
      #expect(after[.modificationDate] as? Date == attributes[.modificationDate] as? Date)
      #expect(after[.systemFileNumber] as? Int == attributes[.systemFileNumber] as? Int)
    }
  }
}

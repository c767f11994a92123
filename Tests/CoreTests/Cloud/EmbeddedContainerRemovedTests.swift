import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// An embedded container's folder removed under a running device (the user deleted the
/// container, a test removed its temporary folder): the device does not make the folder again.
/// Its saves fail, naming the folder, and keep their writes; once a new device made the
/// container anew, the writes reach it.
@Suite struct EmbeddedContainerRemovedTests {
  @Test func aDeviceDoesNotMakeAgainTheFolderRemovedUnderIt() async throws {
    try await withTemporaryFolder { folder in
      let root = folder.file("containers")
      let backend = EmbeddedCloudBackend(root: root, container: "c")
      let device = NSUbiquitousKeyValueStore(backend: backend)
      device.set("v0", forKey: "before")
      #expect(device.synchronize())

      try FileManager.default.removeItem(at: root)
      device.set("v1", forKey: "after")
      #expect(!device.synchronize())
      #expect(!FileManager.default.fileExists(atPath: root.path))
      let account = root.appendingPathComponent("c/default").path
      #expect(
        device.lastError.map { "\($0)" }
          == "\(account)/store.plist could not be written (its folder \(account) was removed; "
          + "a device that used it does not make it again)")
      #expect(device.syncStatus.connection == .offline)
      #expect(device.syncStatus.pendingCount == 1)
      #expect(device.string(forKey: "after") == "v1")

      // A new device makes the container anew: the kept write and the old ones reach it.
      let fresh = EmbeddedCloudBackend(root: root, container: "c")
      let other = NSUbiquitousKeyValueStore(backend: fresh)
      other.set("v2", forKey: "new")
      #expect(other.synchronize())
      #expect(device.synchronize())
      let stored = try fresh.load().records.compactMapValues { $0.value as? String }
      #expect(stored == ["before": "v0", "after": "v1", "new": "v2"])
    }
  }

  /// A device that has not saved yet made its folder when it started: removed before its first
  /// save, the folder is not made again either (a late save of a store a test left behind made
  /// its removed temporary folder again).
  @Test func aDeviceThatNeverSavedDoesNotMakeAgainTheFolderItMade() async throws {
    try await withTemporaryFolder { folder in
      let root = folder.file("containers")
      let device = NSUbiquitousKeyValueStore(
        backend: EmbeddedCloudBackend(root: root, container: "c"))
      #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("c/default").path))

      try FileManager.default.removeItem(at: root)
      device.set("v1", forKey: "late")
      #expect(!device.synchronize())
      #expect(!FileManager.default.fileExists(atPath: root.path))
      #expect(device.syncStatus.pendingCount == 1)
      #expect(device.string(forKey: "late") == "v1")
    }
  }
}

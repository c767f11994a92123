import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// Issue 37: an embedded container whose file is removed and made again by another program
/// (a new device that never read the old one). The running devices notice another generation:
/// they write what they had read into it again (the later write of each key wins by timestamp)
/// and read it from its start — its revisions start again, so the one a device had read up to
/// also numbers a record of the new container.
@Suite struct EmbeddedContainerRemadeTests {
  @Test func runningDevicesWriteTheirRecordsIntoAContainerMadeAnewAndReadAllOfIt() async throws {
    try await withTemporaryFolder { folder in
      func device() -> NSUbiquitousKeyValueStore {
        NSUbiquitousKeyValueStore(backend: EmbeddedCloudBackend(root: folder.url, container: "c"))
      }
      let (first, second) = (device(), device())
      first.set("v0", forKey: "before")
      first.set("old", forKey: "overwritten")
      #expect(first.synchronize())
      #expect(await poll { second.string(forKey: "before") == "v0" })

      try FileManager.default.removeItem(
        at: EmbeddedCloudBackend(root: folder.url, container: "c").fileURL)
      // Another program makes the container anew: its revision 1 (`after`) is the revision
      // `second` had read up to.
      for (key, value) in [("after", "v1"), ("overwritten", "new")] {
        #expect(
          try CoreProbe.run(["cloud-set", folder.url.path, "c", key, value]).status == 0)
      }

      let expected: [PropertyListKey: String] = [
        "before": "v0", "after": "v1", "overwritten": "new",
      ]
      for store in [first, second] {
        #expect(
          await poll { expected.allSatisfy { store.string(forKey: $0.key.string) == $0.value } },
          "\(store.dictionaryRepresentation)")
      }
      // Neither device wrote again, yet a device started now reads every value.
      let fresh = EmbeddedCloudBackend(root: folder.url, container: "c")
      let stored = try fresh.load().records.compactMapValues { $0.value as? String }
      #expect(stored == expected)
    }
  }

  /// A container file replaced in one rename by another container at the same revision (a
  /// restore from a backup, another machine's copy): one change of the file, whose revision
  /// is the one the device had read up to; only the generation tells the containers apart.
  @Test func aContainerReplacedInOneRenameIsReadFromItsStartAndGetsTheDevicesRecords()
    async throws
  {
    try await withTemporaryFolder { folder in
      let (backend, device, elsewhere) = deviceAndAnotherContainer(in: folder)
      #expect(rename(elsewhere.path, backend.fileURL.path) == 0)

      #expect(await poll { device.string(forKey: "theirs") == "v1" })
      let fresh = EmbeddedCloudBackend(root: folder.url, container: "c")
      #expect(
        await poll {
          let stored = (try? fresh.load().records.compactMapValues { $0.value as? String })
          return stored == ["mine": "v0", "theirs": "v1"]
        })
    }
  }

  /// A device that cannot write into the container made anew (its folder immutable, as a
  /// read-only share would be; root writes through permissions) still reads it: the new
  /// container's records arrive, and writing its own again is tried by the next read.
  @Test(.enabled(if: getuid() == 0, "an immutable folder needs root (chattr +i)"))
  func aDeviceThatCannotWriteIntoAContainerMadeAnewStillReadsIt() async throws {
    try await withTemporaryFolder { folder in
      let (backend, device, elsewhere) = deviceAndAnotherContainer(in: folder)
      let bytes = try Data(contentsOf: elsewhere)

      let account = backend.fileURL.deletingLastPathComponent().path
      #expect(try ChildProcess.runCommand("chattr", ["+i", account]).status == 0)
      defer { _ = try? ChildProcess.runCommand("chattr", ["-i", account]) }
      // Rewritten in place: the folder takes no new file and no rename.
      let handle = try FileHandle(forWritingTo: backend.fileURL)
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: bytes)
      try handle.close()

      #expect(await poll { device.string(forKey: "theirs") == "v1" })
      #expect(device.string(forKey: "mine") == "v0")
    }
  }

  /// A device of container `c` in `folder` that saved `mine` = `v0`, and the file of another
  /// container `c` (in `folder/elsewhere`) holding `theirs` = `v1` at the same revision.
  private func deviceAndAnotherContainer(in folder: TemporaryFolder) -> (
    backend: EmbeddedCloudBackend, device: NSUbiquitousKeyValueStore, elsewhere: URL
  ) {
    let backend = EmbeddedCloudBackend(root: folder.url, container: "c")
    let device = NSUbiquitousKeyValueStore(backend: backend)
    device.set("v0", forKey: "mine")
    #expect(device.synchronize())
    let other = EmbeddedCloudBackend(
      root: folder.url.appendingPathComponent("elsewhere"), container: "c")
    let store = NSUbiquitousKeyValueStore(backend: other)
    store.set("v1", forKey: "theirs")
    #expect(store.synchronize())
    return (backend, device, other.fileURL)
  }
}

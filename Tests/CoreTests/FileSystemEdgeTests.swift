import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Issue 12, items 5 and 7: private new files and folders, links, locks, stale temporary files
/// and clear messages for what is not a property-list file.
@Suite struct FileSystemEdgeTests {
  func write(_ key: String, _ value: String, to url: URL) throws {
    _ = try PropertyListFile(url: url).apply([key: .set(value)])
  }

  /// The description of the error reading `url` gives.
  func readError(_ url: URL) -> String? {
    do {
      _ = try PropertyListFile(url: url).read()
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func newFilesAre0600AndNewFoldersAre0700ExistingOnesKeepTheirMode() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.url.appendingPathComponent("a/b/s.plist")
      try write("k", "v", to: url)
      #expect(try permissions(of: url) == 0o600)
      #expect(try permissions(of: folder.url.appendingPathComponent("a")) == 0o700)
      #expect(try permissions(of: folder.url.appendingPathComponent("a/b")) == 0o700)
      let shared = folder.file("shared.plist")
      try foundationWrite([:], to: shared)
      chmod(shared.path, 0o644)
      chmod(folder.url.path, 0o755)
      try write("k", "v", to: shared)
      #expect(try permissions(of: shared) == 0o644)
      #expect(try permissions(of: folder.url) == 0o755)

      let backend = EmbeddedCloudBackend(root: folder.file("cloud"), container: "c", account: "a")
      let store = NSUbiquitousKeyValueStore(backend: backend)
      store.set("v", forKey: "k")
      #expect(store.synchronize())
      #expect(try permissions(of: backend.fileURL) == 0o600)
      #expect(try permissions(of: backend.fileURL.deletingLastPathComponent()) == 0o700)
      #expect(try permissions(of: folder.file("cloud")) == 0o700)
    }
  }

  @Test func noLockFileStaysAndStaleTemporaryFilesOfOurNamingAreRemoved() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("s.plist")
      let names = [
        ".s.plist.12345.tmp", ".s.plist.tmp", ".s.plist.x1.tmp", ".t.plist.7.tmp", "s.plist.9.tmp",
      ]
      for name in names { try Data("x".utf8).write(to: folder.file(name)) }
      try write("k", "v", to: url)
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
      #expect(
        left == [".s.plist.tmp", ".s.plist.x1.tmp", ".t.plist.7.tmp", "s.plist", "s.plist.9.tmp"])
    }
  }

  @Test func danglingLinkGetsItsTargetWrittenAndStaysALink() async throws {
    try await withTemporaryFolder { folder in
      let link = folder.file("link.plist")
      try FileManager.default.createSymbolicLink(
        atPath: link.path, withDestinationPath: "real/target.plist")
      try write("k", "v", to: link)
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real/target.plist")
      #expect(
        try foundationRead(folder.url.appendingPathComponent("real/target.plist"))["k"] as? String
          == "v")
      let defaults = PropertyListDefaults(fileURL: link)
      #expect(defaults.string(forKey: "k") == "v")
    }
  }

  @Test func symbolicLinkAtTheLockPathIsNotFollowed() async throws {
    try await withTemporaryFolder { folder in
      let victim = folder.file("victim")
      try FileManager.default.createSymbolicLink(
        atPath: folder.file(".s.plist.lock").path, withDestinationPath: victim.path)
      #expect(throws: PropertyListError.self) { try write("k", "v", to: folder.file("s.plist")) }
      do {
        try write("k", "v", to: folder.file("s.plist"))
      } catch {
        #expect(
          "\(error)"
            == "\(folder.file("s.plist").path) could not be written (lock file: .s.plist.lock is a symbolic link)"
        )
      }
      #expect(!FileManager.default.fileExists(atPath: victim.path))
      #expect(!FileManager.default.fileExists(atPath: folder.file("s.plist").path))
    }
  }

  @Test func folderLinkLoopAndDeviceAtTheSuitePathHaveClearMessages() async throws {
    try await withTemporaryFolder { folder in
      let directory = folder.file("dir.plist")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      #expect(
        readError(directory) == "\(directory.path) could not be read (it is a folder, not a file)")
      let loop = folder.file("loop.plist")
      try FileManager.default.createSymbolicLink(
        atPath: loop.path, withDestinationPath: "other.plist")
      try FileManager.default.createSymbolicLink(
        atPath: folder.file("other.plist").path, withDestinationPath: "loop.plist")
      #expect(readError(loop) == "\(loop.path) could not be read (a symbolic link loop)")
      #expect(throws: PropertyListError.self) { try write("k", "v", to: loop) }
      let zero = folder.file("zero.plist")
      try FileManager.default.createSymbolicLink(
        atPath: zero.path, withDestinationPath: "/dev/zero")
      #expect(
        readError(zero)
          == "\(zero.path) could not be read (it is not a regular file (a character device))")
      let defaults = PropertyListDefaults(fileURL: zero)
      #expect(defaults.lastError?.kind == .unreadable)
    }
  }

  /// A 0444 file in a writable folder is refused to a writer that is not root (as Foundation
  /// does); the writer runs as `nobody` through `setpriv`.
  @Test(
    .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"))
  )
  func readOnlySuiteFileIsRefusedToAWriterThatIsNotRoot() async throws {
    try await withTemporaryFolder { folder in
      chmod(folder.url.path, 0o777)
      let url = folder.file("ro.plist")
      try foundationWrite(["k": "old"], to: url)
      chmod(url.path, 0o444)
      let before = try Data(contentsOf: url)
      let result = try CoreProbe.run(["try-write", url.path, "k", "new"], asUser: 65534)
      #expect(result.status == 1)
      #expect(
        result.output
          == "\(url.path) could not be written (the file is read-only (Permission denied))\n")
      #expect(try Data(contentsOf: url) == before)
      #expect(try permissions(of: url) == 0o444)
    }
  }
}

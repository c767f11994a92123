import Foundation
import ObservableDefaultsCore
import Testing

/// Suites found by name under `$XDG_CONFIG_HOME`; these tests change the environment, so they
/// run one at a time and restore it.
@Suite(.serialized) struct SuiteLocationTests {
  /// Runs `body` with `XDG_CONFIG_HOME` set to `value` (unset for nil), then restores it.
  func withConfigHome<T>(_ value: String?, _ body: () async throws -> T) async rethrows -> T {
    let saved = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
    if let value { setenv("XDG_CONFIG_HOME", value, 1) } else { unsetenv("XDG_CONFIG_HOME") }
    defer {
      if let saved { setenv("XDG_CONFIG_HOME", saved, 1) } else { unsetenv("XDG_CONFIG_HOME") }
    }
    return try await body()
  }

  @Test func absoluteConfigHomeIsUsedAndRelativeIsIgnored() async throws {
    try await withTemporaryFolder { folder in
      await withConfigHome(folder.url.path) {
        #expect(PreferencesDirectory.url.path == folder.url.path)
        #expect(PreferencesDirectory.fileURL(forSuite: "S").path == folder.file("S.plist").path)
      }
      let home = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
      await withConfigHome("relative/path") {
        #expect(PreferencesDirectory.url.path == home.path)
      }
    }
  }

  /// Foundation's `UserDefaults` runs in a probe process: it reads `XDG_CONFIG_HOME` only once
  /// per process (measured), so it cannot follow this test's temporary folder.
  @Test func foundationAndPropertyListDefaultsReadEachOther() async throws {
    try await withTemporaryFolder { folder in
      try await withConfigHome(folder.url.path) {
        let suite = "suite-\(UUID().uuidString)"
        let ours = try #require(PropertyListDefaults(suiteName: suite))
        #expect(ours.fileURL.path == folder.file(suite + ".plist").path)
        ours.set("from us", forKey: "ours")
        try ours.flush()
        let read = try CoreProbe.run(["foundation-get", suite, "ours"], configHome: folder.url)
        #expect(read.output == "from us\n")
        let write = try CoreProbe.run(
          ["foundation-set", suite, "theirs", "from Foundation"], configHome: folder.url)
        #expect(write.status == 0)
        #expect(ours.synchronize())
        #expect(ours.string(forKey: "theirs") == "from Foundation")
        #expect(ours.string(forKey: "ours") == "from us")
      }
    }
  }

  @Test func suiteNamesListPlistFilesOnly() async throws {
    try await withTemporaryFolder { folder in
      try await withConfigHome(folder.url.path) {
        let defaults = try #require(PropertyListDefaults(suiteName: "b.suite"))
        defaults.set(1, forKey: "k")
        try defaults.flush()
        try foundationWrite([:], to: folder.file("a.plist"))
        try Data().write(to: folder.file("notes.txt"))
        try FileManager.default.createDirectory(
          at: folder.file("folder.plist"), withIntermediateDirectories: true)
        #expect(PreferencesDirectory.suiteNames() == ["a", "b.suite"])
        #expect(FileManager.default.fileExists(atPath: folder.file(".b.suite.plist.lock").path))
      }
    }
  }

  @Test func suiteNameWithSlashIsRefused() {
    #expect(PropertyListDefaults(suiteName: "a/b") == nil)
  }

  @Test func persistentDomainsGoThroughSuiteFiles() async throws {
    try await withTemporaryFolder { folder in
      try await withConfigHome(folder.url.path) {
        let defaults = try #require(PropertyListDefaults(suiteName: "domains"))
        defaults.set(1, forKey: "old")
        defaults.setPersistentDomain(["new": 2], forName: "domains")
        #expect(defaults.object(forKey: "old") == nil)
        #expect(defaults.persistentDomain(forName: "domains")?["new"] as? Int == 2)
        #expect(try foundationRead(folder.file("domains.plist")).count == 1)
        defaults.removePersistentDomain(forName: "domains")
        #expect(try foundationRead(folder.file("domains.plist")).isEmpty)
      }
    }
  }
}

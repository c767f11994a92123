import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Suites found by name under `$XDG_CONFIG_HOME`. The test process never changes its own
/// environment (other tests run beside it): what depends on it runs in a `core-probe` process.
@Suite struct SuiteLocationTests {
  @Test func absoluteConfigHomeIsUsedAndRelativeIsIgnored() {
    let home = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
    #expect(PreferencesDirectory.url(environment: ["XDG_CONFIG_HOME": "/tmp/x"]).path == "/tmp/x")
    #expect(
      PreferencesDirectory.url(environment: ["XDG_CONFIG_HOME": "relative/path"]).path == home.path)
    #expect(PreferencesDirectory.url(environment: [:]).path == home.path)
  }

  /// Issue 12, item 6: with `XDG_*` unset, empty or relative, `$HOME` decides (as Foundation and
  /// the XDG specification do), not the password database.
  @Test func homeVariableDecidesWhenXDGFoldersAreNotAbsolute() {
    for value in [nil, "", "relative"] as [String?] {
      var environment = ["HOME": "/home/elsewhere"]
      environment["XDG_CONFIG_HOME"] = value
      environment["XDG_DATA_HOME"] = value
      #expect(PreferencesDirectory.url(environment: environment).path == "/home/elsewhere/.config")
      #expect(
        HomeFolder.baseFolder("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
          .path
          == "/home/elsewhere/.local/share")
    }
  }

  @Test func dotAndDotDotAreNoSuiteNames() async throws {
    try await withTemporaryFolder { folder in
      for name in ["..plist", "...plist", "a.plist"] {
        try foundationWrite([:], to: folder.file(name))
      }
      #expect(PreferencesDirectory.suiteNames(in: folder.url) == ["a"])
    }
  }

  @Test func suiteNameNamesAFileInTheConfigFolder() async throws {
    try await withTemporaryFolder { folder in
      let printed = try CoreProbe.run(["suite-file", "S"], configHome: folder.url)
      #expect(printed.output == folder.file("S.plist").path + "\n")
    }
  }

  /// Foundation's `UserDefaults` runs in a probe process, with the folder as `XDG_CONFIG_HOME`.
  @Test func foundationAndPropertyListDefaultsReadEachOther() async throws {
    try await withTemporaryFolder { folder in
      let suite = "suite-\(UUID().uuidString)"
      let ours = PropertyListDefaults(fileURL: folder.file(suite + ".plist"))
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

  @Test func suiteNamesListPlistFilesOnly() async throws {
    try await withTemporaryFolder { folder in
      let defaults = PropertyListDefaults(fileURL: folder.file("b.suite.plist"))
      defaults.set(1, forKey: "k")
      try defaults.flush()
      try foundationWrite([:], to: folder.file("a.plist"))
      try Data().write(to: folder.file("notes.txt"))
      try FileManager.default.createDirectory(
        at: folder.file("folder.plist"), withIntermediateDirectories: true)
      #expect(PreferencesDirectory.suiteNames(in: folder.url) == ["a", "b.suite"])
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
          == ["a.plist", "b.suite.plist", "folder.plist", "notes.txt"],
        "no lock file or temporary file is left beside the files")
    }
  }

  @Test func suiteNameWithSlashIsRefused() {
    #expect(PropertyListDefaults(suiteName: "a/b") == nil)
  }

  @Test func persistentDomainsGoThroughSuiteFiles() async throws {
    try await withTemporaryFolder { folder in
      let file = folder.file("domains.plist")
      try foundationWrite(["old": 1], to: file)
      let set = try CoreProbe.run(
        ["set-persistent-domain", "domains", "new", "2"], configHome: folder.url)
      #expect(set.status == 0)
      let values = try foundationRead(file)
      #expect(values["new"] as? String == "2")
      #expect(values.count == 1)
      let removed = try CoreProbe.run(
        ["remove-persistent-domain", "domains"], configHome: folder.url)
      #expect(removed.status == 0)
      #expect(try foundationRead(file).isEmpty)
    }
  }
}

import Foundation
import ObservableDefaultsCore
import ObservableDefaultsTesting
import TestSupport
import Testing

/// A schema migration sees a suite's and a cloud store's keys by their exact Unicode scalars:
/// `é` as U+00E9 and as `e` U+0301 are two keys, and a step that walks the values migrates both
/// (as python's `plistlib` reads the file and another device reads the store).
@Suite struct ExactKeyMigrationTests {
  private static let (composed, decomposed) = (PythonPlistlib.composed, PythonPlistlib.decomposed)

  /// One step: every string value in capitals.
  private static let capitals = SuiteMigrations([
    SuiteMigrationStep(to: 1, "every string in capitals") { suite in
      for key in suite.values.keys {
        try suite.convert("\(key)", from: String.self) { $0.uppercased() }
      }
    }
  ])

  @Test(arguments: [true, false])
  func aSuiteFileMigratesBothKeys(binary: Bool) async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("suite.plist")
      try PythonPlistlib.write(
        [(Self.composed, "composed"), (Self.decomposed, "decomposed"), ("other", "o")], to: url,
        binary: binary)
      let plan = try PropertyListDefaults(fileURL: url).migrate(Self.capitals)
      #expect(
        plan.changedKeys.map { PropertyListKey("\($0)") }
          == [PropertyListKey(Self.decomposed), "other", PropertyListKey(Self.composed)])
      #expect(
        try PythonPlistlib.read(url)
          == #"[('ObservableDefaults.schemaVersion', 1), ('e\u0301', 'DECOMPOSED'), ('other', 'O'), ('\xe9', 'COMPOSED')]"#
      )
    }
  }

  @Test func aCloudStoreMigratesBothKeysAndAnotherDeviceGetsBoth() async throws {
    try await withTemporaryFolder { folder in
      func device() -> NSUbiquitousKeyValueStore {
        NSUbiquitousKeyValueStore(
          backend: EmbeddedCloudBackend(root: folder.url, container: "tests", account: "a"))
      }
      let first = device()
      first.set("composed", forKey: Self.composed)
      first.set("decomposed", forKey: Self.decomposed)
      #expect(first.synchronize())
      let plan = try first.migrate(Self.capitals)
      #expect(
        plan.changedKeys.map { PropertyListKey("\($0)") }
          == [PropertyListKey(Self.decomposed), PropertyListKey(Self.composed)])
      #expect(first.synchronize())
      let second = device()
      #expect(second.synchronize())
      for store in [first, second] {
        #expect(store.string(forKey: Self.composed) == "COMPOSED")
        #expect(store.string(forKey: Self.decomposed) == "DECOMPOSED")
        #expect(store.object(forKey: SuiteMigrations.versionKey) as? Int == 1)
      }
    }
  }
}

import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Issue 20: the device journal's folders are private, like the suites' folders.
@Suite struct CloudDeviceJournalTests {
  @Test func newStateFoldersAre0700AndTheJournal0600ExistingFoldersKeepTheirMode() async throws {
    try await withTemporaryFolder { folder in
      let state = folder.file("state/ObservableDefaults/etcd")
      let journal = try CloudDeviceJournal(directory: state, container: "app", account: "alice")
      defer { journal.releaseFile() }
      try journal.persist()
      let file = try #require(journal.file)
      #expect(file.path == state.path + "/app/alice.plist")
      #expect(try permissions(of: file) == 0o600)
      for created in ["state", "state/ObservableDefaults", "state/ObservableDefaults/etcd"] {
        #expect(try permissions(of: folder.file(created)) == 0o700, "\(created)")
      }
      #expect(try permissions(of: file.deletingLastPathComponent()) == 0o700)

      let shared = folder.file("shared")
      try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
      chmod(shared.path, 0o755)
      let other = try CloudDeviceJournal(directory: shared, container: "app", account: "bob")
      defer { other.releaseFile() }
      try other.persist()
      #expect(try permissions(of: shared) == 0o755)
      #expect(try permissions(of: shared.appendingPathComponent("app")) == 0o700)
    }
  }

  /// A journal written after its folder was removed (a store that flushes or closes with an
  /// unsent write once its test removed the temporary folder) does not make the folder again:
  /// the write fails naming it, and nothing is left where the folder was. (The write made every
  /// missing folder of the path again, and the test run found `<folder>/tests-<id>/default.plist`
  /// left in its temporary folder.)
  @Test func aJournalDoesNotMakeAgainTheFolderRemovedUnderIt() async throws {
    try await withTemporaryFolder { folder in
      let state = folder.file("state")
      var journal = try CloudDeviceJournal(
        directory: state, container: "tests-1", account: "default")
      defer { journal.releaseFile() }
      let timestamp = CloudTimestamp(time: 1, counter: 0, device: "d")
      journal.add(pending: ["name": CloudRecord(value: "unsent", timestamp: timestamp)])
      try journal.persist()
      try FileManager.default.removeItem(at: state)
      let error = try #require(throws: PropertyListError.self) { try journal.persist() }
      #expect(error.kind == .unwritable)
      #expect(
        error.reason
          == "its folder \(state.path)/tests-1 does not exist (it was removed); it is not made "
          + "again")
      #expect(!FileManager.default.fileExists(atPath: state.path))
      #expect(journal.pending.count == 1)
    }
  }
}

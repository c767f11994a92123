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
}

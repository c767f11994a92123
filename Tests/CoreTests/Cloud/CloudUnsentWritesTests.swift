import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// What a store closing with writes not sent says about them.
@Suite struct CloudUnsentWritesTests {
  /// The journal is named as keeping the writes only while its file is there: once its folder
  /// was removed (a journal does not make it again), the line says they are lost. (It said they
  /// were kept in a journal that no longer existed.)
  @Test func unsentWritesAreKeptOnlyInAJournalFileThatIsThere() async throws {
    try await withTemporaryFolder { folder in
      let journal = folder.file("state/app/alice.plist")
      try FileManager.default.createDirectory(
        at: journal.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data().write(to: journal)
      let backend = JournaledBackend(journal: journal)
      let recorder = DiagnosticsRecorder()
      defer { recorder.stop() }
      CloudUnsentWrites.report(1, on: backend, atExit: true)
      try FileManager.default.removeItem(at: folder.file("state"))
      CloudUnsentWrites.report(2, on: backend, atExit: false)
      #expect(
        // Only this test's lines: other tests report at the same time.
        recorder.messages.filter { $0.contains(JournaledBackend.name) } == [
          "exiting with 1 cloud write not sent to \(JournaledBackend.name) (offline): kept in the "
            + "journal \(journal.path) for the next launch",
          "closing the store with 2 cloud writes not sent to \(JournaledBackend.name) (offline): "
            + "lost",
        ])
    }
  }
}

/// A backend whose device keeps its journal in `journal`, offline.
private final class JournaledBackend: WrappingCloudBackend, CloudJournaledBackend {
  static let name = "unsent-writes-test-engine"
  let journal: URL
  let base = InMemoryCloudBackend()

  init(journal: URL) { self.journal = journal }

  var syncStatus: CloudSyncStatus {
    CloudSyncStatus(backend: Self.name, endpoint: nil, account: "alice", connection: .offline)
  }
  var journalLocation: (url: URL, isHeldElsewhere: Bool)? { (journal, false) }
}

import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import ObservableDefaultsTesting
import Testing

@testable import SettingsEditor

/// The change log of a session: who made each change of a settings object, as the editor tells
/// it (the program itself, the editor's keys, a reset, another device).
@MainActor
@Suite struct ChangeRecordingTests {
  /// The loop's jobs, run on the main actor.
  private let post: MainJobPoster = { job in Task { @MainActor in job() } }

  /// The session's log, newest first, one line per change.
  private func lines(_ session: EditorSession) -> [String] {
    session.changeLog.newestFirst().map {
      "\($0.change.key): \(SeenChange.text(of: $0.change.old)) → "
        + "\(SeenChange.text(of: $0.change.new)) by \($0.change.origin)"
    }
  }

  @Test func theProgramTheEditorAndAResetAreToldApart() async throws {
    let suite = TestPreferences.uniqueSuite()
    let profile = ProfileSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    let rows = SettingsObjectRows(AnySettings(profile))
    let session = EditorSession(sources: [rows])
    session.history = nil
    session.recordChanges(of: rows, post: post)
    profile.age = 30
    #expect(await poll { session.changeLog.newestFirst().count == 1 })
    try rows.setValue(31, at: 1)
    try rows.resetValue(at: 1)
    #expect(await poll { session.changeLog.newestFirst().count == 3 })
    #expect(
      lines(session) == [
        "age: 31 → (none) by this editor (reset)", "age: 30 → 31 by this editor",
        "age: (none) → 30 by this program",
      ])
  }

  @Test func aChangeFromAnotherDeviceNamesTheDevice() async throws {
    let phone = InMemoryCloudBackend()
    let laptop = phone.anotherDevice()
    let rows = SettingsObjectRows(
      AnySettings(StatusCloudSettings(store: NSUbiquitousKeyValueStore(backend: phone))))
    let session = EditorSession(sources: [rows])
    session.history = nil
    session.recordChanges(of: rows, post: post)
    let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
    try laptop.save([
      "name": CloudRecord(
        value: "Ann", timestamp: CloudTimestamp(time: now, counter: 0, device: "laptop"))
    ])
    #expect(await poll { !session.changeLog.newestFirst().isEmpty })
    #expect(lines(session) == ["name: (none) → Ann by device laptop"])
  }

  @Test func theLogKeepsTheNewestThousand() {
    var log = ChangeLog()
    let source = ObjectIdentifier(ChangeLog.self)
    for index in 0..<1_005 {
      log.append(
        ChangeEntry(
          time: Date(), source: source, sourceTitle: "S", sourceIndex: 0,
          change: SeenChange(key: "k\(index)", old: nil, new: index, writer: .thisProcess)))
    }
    let entries = log.newestFirst()
    #expect(entries.count == 1_000)
    #expect(entries.first?.change.key == "k1004")
    #expect(entries.last?.change.key == "k5")
    #expect(log.newestFirst(key: "k1000").count == 1)
  }

  @Test func theDownstreamLineReadsInTenSeconds() {
    let line = Downstream(
      keysChanged: 1, observersTold: 1, rowsRedrawn: 1, rowCount: 10_000, isShown: true,
      bytesWritten: 148)
    #expect(
      line.text(key: "age")
        == "age: 1 key changed → 1 observer told → 1 row redrawn of 10,000 (148 bytes written)")
    let elsewhere = Downstream(
      keysChanged: 2, observersTold: 3, rowsRedrawn: 0, rowCount: 3, isShown: false,
      bytesWritten: nil)
    #expect(
      elsewhere.text(key: "name")
        == "name: 2 keys changed → 3 observers told → not shown (0 rows redrawn)")
    #expect(Downstream.grouped(1_234_567) == "1,234,567")
  }
}

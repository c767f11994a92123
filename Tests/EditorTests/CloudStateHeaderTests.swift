import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import Testing

@testable import SettingsEditor

/// A cloud backend whose connection the test sets, over an in-memory container.
final class StatusBackend: CloudBackend, @unchecked Sendable {
  private let container = InMemoryCloudBackend()
  private let lock = NSLock()
  private var status = CloudSyncStatus(
    backend: "test", endpoint: nil, account: "default", connection: .connected)

  /// Sets what ``syncStatus`` answers.
  func set(_ connection: CloudSyncStatus.Connection, pending: Int) {
    lock.withLock {
      status = CloudSyncStatus(
        backend: "test", endpoint: nil, account: "default", connection: connection,
        pendingCount: pending)
    }
  }

  var syncStatus: CloudSyncStatus { lock.withLock { status } }
  func load() -> CloudRecordBatch { container.load() }
  func save(_ records: [String: CloudRecord]) throws { try container.save(records) }
  func switchAccount(to account: String) { container.switchAccount(to: account) }
  func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  )
    -> DefaultsObservation
  {
    container.subscribe(from: cursor, handler)
  }
}

/// A cloud object on a store the test chooses.
@ObservableCloud(autoInit: false)
final class StatusCloudSettings {
  var name = "Fatbobman"

  init(store: NSUbiquitousKeyValueStore) {
    _$defaults.store = store
    _cloudObserver = CloudObservation(host: self, prefix: _prefix)
  }
}

/// The header shows a cloud object's sync state as it is now: a change of the connection alone
/// (no value changed) is drawn at the next state check, which the loop wakes for every second.
@MainActor
@Suite struct CloudStateHeaderTests {
  @Test func aConnectionChangeAloneRedrawsTheHeaderAndNoRow() {
    let backend = StatusBackend()
    let settings = StatusCloudSettings(store: NSUbiquitousKeyValueStore(backend: backend))
    let (canvas, _, screen) = TestScreen.show(SettingsObjectRows(AnySettings(settings)), rows: 10)
    #expect(canvas.line(0).contains("[cloud, synced, LIVE]"), "\(canvas.line(0))")
    #expect(screen.nextDeadline != nil, "the loop wakes to compare the state")

    backend.set(.offline, pending: 2)
    screen.draw(Damage())
    #expect(canvas.line(0).contains("[cloud, offline, 2 pending, LIVE]"), "\(canvas.line(0))")
    #expect(screen.redrawCount(source: 0, row: 0) == 0)
  }
}

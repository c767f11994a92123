import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import Testing

@testable import SettingsEditor

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

  /// At 80 columns the badges come whole: the path and then the object's name are shortened.
  @Test func theBadgesAreWholeAt80Columns() {
    let backend = StatusBackend()
    backend.set(.offline, pending: 12)
    let settings = StatusCloudSettings(store: NSUbiquitousKeyValueStore(backend: backend))
    let (canvas, session, screen) = TestScreen.show(
      SettingsObjectRows(AnySettings(settings)), rows: 10, columns: 80)
    screen.draw(session.handle(.character("m")))
    let header = canvas.line(0)
    #expect(
      header == " settings-editor  StatusClou… [cloud, offline, 12 pending, LIVE, modified only]",
      "the object's name is cut, the path is gone")
  }

  /// `synced` is what the backend states (its last exchange reached a quorum), never the
  /// editor's guess from a connection with nothing pending.
  @Test func aConnectionWhoseQuorumIsUnprovenIsShownConnectedNotSynced() {
    let backend = StatusBackend()
    backend.set(.connected, pending: 0, reachedQuorum: false)
    let settings = StatusCloudSettings(store: NSUbiquitousKeyValueStore(backend: backend))
    let (canvas, _, _) = TestScreen.show(SettingsObjectRows(AnySettings(settings)), rows: 10)
    #expect(canvas.line(0).contains("[cloud, connected, LIVE]"), "\(canvas.line(0))")
  }
}

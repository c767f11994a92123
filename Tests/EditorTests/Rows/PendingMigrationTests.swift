import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import Testing

@testable import SettingsEditor

/// The editor shows what waits for a migration: `i` on a property whose value lies under a
/// previous key names the keys its next write moves and removes.
@MainActor
@Suite struct PendingMigrationTests {
  @Test func detailsNameTheKeysTheNextWriteMoves() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write("Ann", forKey: "name")
    let settings = AnySettings(
      RenamedEditorSettings(userDefaults: TestPreferences.writer(ofSuite: suite)))
    #expect(
      settings.pendingMigrations == [
        "displayName: stored under the previous key 'name'; the next write moves it to 'displayName' and removes 'name'"
      ])
    let (canvas, session, screen) = TestScreen.show(SettingsObjectRows(settings), rows: 24)
    screen.draw(session.handle(.character("i")))
    #expect(canvas.line(5).hasSuffix("│  Migration  stored under the previous key 'name'; the"))
    #expect(canvas.line(6).hasSuffix("│             next write moves it to 'displayName' and"))
    #expect(canvas.line(7).hasSuffix("│             removes 'name'"))
  }

  @Test func nothingIsPendingOnceTheValueMoved() throws {
    let suite = TestPreferences.uniqueSuite()
    let writer = TestPreferences.writer(ofSuite: suite)
    try writer.write("Ann", forKey: "name")
    let object = RenamedEditorSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    object.displayName = "Bo"
    #expect(AnySettings(object).pendingMigrations == [])
    #expect(writer.persistentValue(forKey: "name") == nil)
  }
}

import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import ObservableDefaultsTesting
import Synchronization
import TestSupport
import Testing

@testable import SettingsEditor

/// A row redrawn in a frame before its change's report reaches the loop (Observation tells the
/// row on the writing thread; the store's observers post the report after it): the report's
/// frame still counts that row as what the change did, and draws its told count.
@MainActor
@Suite struct LateChangeReportTests {
  @Test func aRowRedrawnBeforeItsReportIsCountedByTheReportsFrame() async throws {
    let suite = TestPreferences.uniqueSuite()
    let profile = ProfileSettings(userDefaults: TestPreferences.writer(ofSuite: suite))
    let rows = SettingsObjectRows(AnySettings(profile))
    let (canvas, session, screen) = TestScreen.show(rows, rows: 12)
    session.history = nil
    session.state.showsRedrawCounts = true
    // The loop's jobs wait here until the test runs them: the frame below falls between the
    // row's invalidation and the change's report.
    let jobs = Mutex<[@MainActor @Sendable () -> Void]>([])
    session.recordChanges(of: rows, post: { job in jobs.withLock { $0.append(job) } })
    screen.draw(Damage(layout: true))

    profile.age = 42
    #expect(await poll { jobs.withLock { !$0.isEmpty } })
    screen.draw(Damage())
    #expect(screen.redrawCount(source: 0, row: 1) == 1)
    #expect(session.changeLog.newestFirst().isEmpty)

    for job in jobs.withLock({ $0 }) { job() }
    screen.draw(Damage())
    let downstream = try #require(session.changeLog.newestFirst().first?.downstream)
    #expect(downstream.keysChanged == 1)
    #expect(downstream.rowsRedrawn == 1)
    #expect(screen.redrawCount(source: 0, row: 1) == 1)
    let lines = (0..<12).map { canvas.line($0) }
    let age = try #require(lines.first { $0.contains(" age ") })
    #expect(age.hasSuffix("\(downstream.observersTold)    ↻1"), "\(age)")
  }
}

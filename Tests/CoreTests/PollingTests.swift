import Foundation
import ObservableDefaultsTesting
import Testing

/// The shared wait of the tests, `poll(within:until:)`: time in which the waiting task could not
/// run does not use up its deadline. (Issue 37: `ObservationsSequenceTests` failed once in a
/// loaded run, and took 14–20 s instead of 0.3 s beside suites whose clusters start with
/// blocking waits on the cooperative pool: the awaited `Observations` task and the wait were
/// starved together, and the wait gave up at its first check after the pool came back.)
@Suite struct PollingTests {
  /// A sleep that ends 1.5 s late (as when the pool is held elsewhere; here the sleep itself
  /// is made longer, waiting for nothing), with a deadline of 1 s: the wait checks again
  /// afterwards instead of giving up.
  @Test func aSleepEndingLateByStarvationDoesNotUseUpTheDeadline() async {
    var checks = 0
    var sleeps = 0
    let held = await poll(
      within: .seconds(1),
      sleeping: { interval in
        sleeps += 1
        try? await Task.sleep(for: sleeps == 1 ? interval + .milliseconds(1500) : interval)
      },
      until: {
        checks += 1
        return checks == 3
      })
    #expect(held)
    #expect(checks == 3)
  }

  /// A condition that never holds still ends the wait: after about its deadline when nothing
  /// starves it.
  @Test func aConditionThatNeverHoldsEndsTheWaitAfterTheDeadline() async {
    let start = ContinuousClock.now
    #expect(await poll(within: .milliseconds(300)) { false } == false)
    let waited = ContinuousClock.now - start
    #expect(waited >= .milliseconds(300))
  }
}

import Foundation

/// The one way tests wait for something that happens on another thread, process or machine:
/// check a condition every ``interval`` until it holds or ``deadline`` passes.
///
/// The deadline is generous on purpose. The machine that runs the tests is shared (2 cores, other
/// builds beside them), so a wait is sized for the slowest run, not the usual one: a condition
/// that holds returns at once, and only a failing test pays the whole deadline.
public enum Polling {
  /// How long a wait lasts when the test names no other deadline: 10 s.
  public static let deadline: Duration = .seconds(10)

  /// How long a wait sleeps between two checks: 10 ms.
  public static let interval: Duration = .milliseconds(10)

  /// How late a sleep of ``poll(within:until:)`` may end and still count whole against its
  /// deadline: 250 ms. A sleep that ends later means the waiting task was not run — blocking
  /// code elsewhere in the process held every thread of the cooperative pool (a test starting a
  /// cluster, or a static initializer others wait for) — and the task it waits for, on the same
  /// pool, did not run either; that time is not counted.
  public static let lateness: Duration = .milliseconds(250)
}

/// Waits until `condition` holds, checking it every ``Polling/interval`` and letting other tasks
/// (the main actor's jobs too) run in between.
///
/// The deadline counts the time the wait could run: a sleep that ends more than
/// ``Polling/lateness`` late (the cooperative pool was held elsewhere, so the awaited task could
/// not run either) counts as ``Polling/interval`` plus that lateness. Under such starvation a
/// failing wait lasts longer than `deadline`; a wait whose condition holds still returns at once.
///
/// - Parameters:
///   - deadline: The longest wait; ``Polling/deadline`` (10 s) unless the test needs another.
///   - condition: Checked at once, then after each interval; an error it throws ends the wait.
/// - Returns: Whether `condition` held before the deadline (checked a last time at the deadline).
@discardableResult
public nonisolated(nonsending) func poll(
  within deadline: Duration = Polling.deadline, until condition: () throws -> Bool
) async rethrows -> Bool {
  try await poll(within: deadline, sleeping: { try? await Task.sleep(for: $0) }, until: condition)
}

/// ``poll(within:until:)`` with its sleep given, so that a test can make one sleep overrun.
///
/// - Parameter sleep: Sleeps for the duration given (``Polling/interval``).
package nonisolated(nonsending) func poll(
  within deadline: Duration, sleeping sleep: (Duration) async -> Void,
  until condition: () throws -> Bool
) async rethrows -> Bool {
  var counted = Duration.zero
  while counted < deadline {
    if try condition() { return true }
    let start = ContinuousClock.now
    await sleep(Polling.interval)
    counted += min(ContinuousClock.now - start, Polling.interval + Polling.lateness)
  }
  return try condition()
}

/// Blocks the calling thread until `condition` holds, checking it every ``Polling/interval``: the
/// form of ``poll(within:until:)`` for code that cannot suspend (helpers called from synchronous
/// tests). Nothing on the calling thread runs while it waits.
///
/// - Parameters:
///   - deadline: The longest wait; ``Polling/deadline`` (10 s) unless the test needs another.
///   - condition: Checked at once, then after each interval; an error it throws ends the wait.
/// - Returns: Whether `condition` held before the deadline (checked a last time at the deadline).
@discardableResult
public func pollBlocking(
  within deadline: Duration = Polling.deadline, until condition: () throws -> Bool
) rethrows -> Bool {
  let end = ContinuousClock.now + deadline
  while ContinuousClock.now < end {
    if try condition() { return true }
    let (seconds, attoseconds) = Polling.interval.components
    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
  }
  return try condition()
}

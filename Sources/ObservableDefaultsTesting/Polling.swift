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
}

/// Waits until `condition` holds, checking it every ``Polling/interval`` and letting other tasks
/// (the main actor's jobs too) run in between.
///
/// - Parameters:
///   - deadline: The longest wait; ``Polling/deadline`` (10 s) unless the test needs another.
///   - condition: Checked at once, then after each interval; an error it throws ends the wait.
/// - Returns: Whether `condition` held before the deadline (checked a last time at the deadline).
@discardableResult
public nonisolated(nonsending) func poll(
  within deadline: Duration = Polling.deadline, until condition: () throws -> Bool
) async rethrows -> Bool {
  let end = ContinuousClock.now + deadline
  while ContinuousClock.now < end {
    if try condition() { return true }
    try? await Task.sleep(for: Polling.interval)
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

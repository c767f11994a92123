import Synchronization

/// Rows whose values changed since they were drawn, collected from Observation callbacks on any
/// thread, and the wake-up that makes the loop redraw them.
///
/// Each full paint starts a new generation; callbacks armed by an older paint are ignored, so
/// one change never redraws a row that is no longer on screen.
final class RowInvalidation: Sendable {
  private struct Pending {
    var generation = 0
    var rows: Set<Int> = []
    var layout = false
  }

  private let pending = Mutex(Pending())
  private let wake: @Sendable () -> Void

  /// - Parameter wake: called after each invalidation, from the thread that made the change.
  init(wake: @escaping @Sendable () -> Void) {
    self.wake = wake
  }

  /// Starts a new generation (a full paint) and drops everything pending.
  func startGeneration() -> Int {
    pending.withLock { pending in
      pending.generation += 1
      pending.rows = []
      pending.layout = false
      return pending.generation
    }
  }

  /// Marks the row at `index` of the shown source stale.
  func invalidateRow(_ index: Int, generation: Int) {
    let accepted = pending.withLock { pending in
      guard pending.generation == generation else { return false }
      pending.rows.insert(index)
      return true
    }
    if accepted { wake() }
  }

  /// Marks the shown source's row list stale (keys appeared or disappeared).
  func invalidateLayout(generation: Int) {
    let accepted = pending.withLock { pending in
      guard pending.generation == generation else { return false }
      pending.layout = true
      return true
    }
    if accepted { wake() }
  }

  /// Takes what is pending.
  func take() -> (rows: Set<Int>, layout: Bool) {
    pending.withLock { pending in
      defer {
        pending.rows = []
        pending.layout = false
      }
      return (pending.rows, pending.layout)
    }
  }
}

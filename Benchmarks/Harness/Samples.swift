import Foundation

/// The results of repeating one measure: one value per run, in the measure's unit.
struct Samples {
  /// The values, sorted ascending.
  let values: [Double]

  /// Keeps `values` (any order; at least one).
  init(_ values: [Double]) {
    precondition(!values.isEmpty, "a measure needs at least one run")
    self.values = values.sorted()
  }

  /// The middle value (the mean of the two middle ones for an even count).
  var median: Double { percentile(50) }
  /// The smallest value.
  var min: Double { values[0] }
  /// The largest value.
  var max: Double { values[values.count - 1] }

  /// The value below which `percent` % of the values lie, interpolated between neighbours.
  func percentile(_ percent: Double) -> Double {
    let position = Double(values.count - 1) * percent / 100
    let lower = Int(position.rounded(.down))
    let upper = Swift.min(lower + 1, values.count - 1)
    return values[lower] + (values[upper] - values[lower]) * (position - Double(lower))
  }
}

/// Nanoseconds of `CLOCK_MONOTONIC`: one clock for the whole machine, so stamps taken in two
/// processes can be subtracted.
func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Seconds elapsed since `start`, a ``monotonicNanoseconds()`` stamp.
func seconds(since start: UInt64) -> Double {
  Double(monotonicNanoseconds() - start) / 1e9
}

/// Keeps the optimizer from deleting the computation of `value`.
@inline(never)
func blackHole<Value>(_ value: Value) {
  withExtendedLifetime(value) {}
}

/// Runs `body` `warmUps` times unmeasured, then `runs` times, and returns each run's duration
/// divided by `operations` (seconds per operation).
///
/// - Parameters:
///   - runs: Measured runs (at least 5 for a median and spread worth printing).
///   - warmUps: Unmeasured runs first (caches, lazy initialization, page faults).
///   - operations: How many operations one call of `body` performs.
///   - body: One run; the argument is the run's number (warm-ups included).
func timeRuns(runs: Int, warmUps: Int = 1, operations: Int = 1, _ body: (Int) -> Void) -> Samples {
  for run in 0..<warmUps { body(run) }
  return Samples(
    (0..<runs).map { run in
      let start = monotonicNanoseconds()
      body(warmUps + run)
      return seconds(since: start) / Double(operations)
    })
}

import Foundation
import ObservableDefaults
import Observation

/// A write in another process (B), until an Observation tracker of the same property fires in
/// this process (A). Both stamp `CLOCK_MONOTONIC`.
///
/// B stamps when it starts the write (property set, then flush to the file): A's inotify sees
/// the renamed file before B's `flush()` has returned, so a stamp taken after the flush is often
/// later than A's. The latency shown therefore includes B's own write and `fsync`.
struct ExternalChangeMeasure {
  let workspace: Workspace
  let changes: Int

  func run(into table: ResultTable) {
    let file = workspace.newFile("external")
    let settings = BenchmarkSettings(userDefaults: PropertyListDefaults(fileURL: file))
    let writer = Worker.process(["change-writer", file.path], configHome: workspace.folder)
    let channel = LineChannel(writer)
    do { try writer.run() } catch { abort("cannot start the writer: \(error)") }
    defer {
      channel.close()
      writer.waitUntilExit()
    }

    let fired = FiredStamp()
    var latencies: [Double] = []
    for index in 0..<(changes + 5) {  // the first 5 warm up
      withObservationTracking { _ = settings.name } onChange: { fired.record() }
      channel.send("value-\(index)")
      guard let line = channel.receive(), let written = UInt64(line) else { abort("the writer stopped") }
      guard let seen = fired.wait(seconds: 2) else { abort("change \(index) was not observed within 2 s") }
      if index >= 5 { latencies.append(Double(Int64(bitPattern: seen &- written)) / 1e9) }
    }
    let samples = Samples(latencies)
    table.add(ResultRow(
      measure: "External change, B starts its write → A's tracker fires: p50", samples: samples,
      unit: .milliseconds))
    let p99 = samples.percentile(99)
    table.add(ResultRow(
      measure: "External change: p99 (of \(changes))", samples: samples, unit: .milliseconds, value: p99,
      target: Target(text: "p99 ≤ 20 ms", isMet: p99 <= 0.02)))
  }

  /// Worker mode `change-writer <file>`: for each line read, sets `name` to it and flushes, then
  /// prints the `CLOCK_MONOTONIC` nanoseconds at which it started.
  static func runWriter(file: String) {
    let store = PropertyListDefaults(fileURL: URL(fileURLWithPath: file))
    let settings = BenchmarkSettings(userDefaults: store)
    while let line = readLine() {
      let start = monotonicNanoseconds()
      settings.name = line
      do { try store.flush() } catch { abort("change-writer: \(error)") }
      FileHandle.standardOutput.write(Data("\(start)\n".utf8))
    }
  }
}

/// The stamp taken when a tracker fired, handed from the notifying thread to the measuring one.
final class FiredStamp: @unchecked Sendable {
  private let condition = NSCondition()
  private var stamp: UInt64?

  func record() {
    let now = monotonicNanoseconds()
    condition.withLock {
      stamp = now
      condition.signal()
    }
  }

  /// The stamp once recorded (and clears it), or nil after `seconds`.
  func wait(seconds: Double) -> UInt64? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    return condition.withLock {
      while stamp == nil, condition.wait(until: deadline) {}
      defer { stamp = nil }
      return stamp
    }
  }
}

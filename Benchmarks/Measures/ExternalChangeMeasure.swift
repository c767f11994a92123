import Foundation
import ObservableDefaults
import Observation

/// A write in another process (B), until an Observation tracker of the same property fires in
/// this process (A), in a suite of a given size. Both stamp `CLOCK_MONOTONIC`.
///
/// B stamps when it starts the write (property set, then flush to the file): A's inotify sees
/// the renamed file before B's `flush()` has returned, so a stamp taken after the flush is often
/// later than A's. The latency therefore includes B's own write and `fsync`.
struct ExternalChangeMeasure {
  /// The latencies of the changes, and A's resident memory after its first read of the suite,
  /// before the measured changes and after them.
  struct Result {
    let latencies: Samples
    let residentAfterOpen: Int
    let residentBefore: Int
    let residentAfter: Int
    /// Growth of A's resident memory over the changes, in percent.
    var residentGrowth: Double {
      Double(residentAfter - residentBefore) / Double(residentBefore) * 100
    }
  }

  let workspace: Workspace

  /// Measures `changes` changes (after 5 unmeasured) of one key of a suite holding `keys` other
  /// keys, its file in `format`: the string `name`, or with `valueBytes` the data `blob` of that
  /// many bytes.
  func run(
    keys: Int, changes: Int, format: PropertyListSerialization.PropertyListFormat = .binary,
    valueBytes: Int? = nil
  ) -> Result {
    let file = workspace.newFile("external-\(keys)-\(format.rawValue)")
    EditorMeasure.writeSuite(at: file, keys: keys, valueLength: 20, format: format)
    let store = PropertyListDefaults(fileURL: file)
    let settings = BenchmarkSettings(userDefaults: store)
    // Memory is sampled when the reader is idle: `flush()` (nothing pending) waits for the
    // suite's queue, so a re-read in progress (two versions of the file in memory) is over.
    func idleResidentMemory() -> Int {
      try? store.flush()
      return residentMemory()
    }
    let writer = Worker.process(
      ["change-writer", file.path] + (valueBytes.map { [String($0)] } ?? []),
      configHome: workspace.folder)
    let channel = LineChannel(writer)
    do { try writer.run() } catch { abort("cannot start the writer: \(error)") }
    defer {
      channel.close()
      writer.waitUntilExit()
    }

    if valueBytes == nil { _ = settings.name } else { _ = settings.blob }
    let residentAfterOpen = idleResidentMemory()
    let fired = FiredStamp()
    var latencies: [Double] = []
    var residentBefore = 0
    for index in 0..<(changes + 5) {  // the first 5 warm up
      if index == 5 { residentBefore = idleResidentMemory() }
      withObservationTracking {
        if valueBytes == nil { _ = settings.name } else { _ = settings.blob }
      } onChange: {
        fired.record()
      }
      channel.send("value-\(index)")
      guard let line = channel.receive(), let written = UInt64(line) else {
        abort("the writer stopped")
      }
      guard let seen = fired.wait(seconds: 30) else {
        abort("change \(index) was not observed within 30 s")
      }
      if index >= 5 { latencies.append(Double(Int64(bitPattern: seen &- written)) / 1e9) }
    }
    return Result(
      latencies: Samples(latencies), residentAfterOpen: residentAfterOpen,
      residentBefore: residentBefore,
      residentAfter: idleResidentMemory()
    )
  }

  /// Worker mode `change-writer <file> [bytes]`: for each line read, sets `name` to it (or
  /// `blob` to `bytes` bytes that start with it) and flushes, then prints the `CLOCK_MONOTONIC`
  /// nanoseconds at which it started.
  static func runWriter(file: String, valueBytes: Int?) {
    let store = PropertyListDefaults(fileURL: URL(fileURLWithPath: file))
    let settings = BenchmarkSettings(userDefaults: store)
    while let line = readLine() {
      let blob = valueBytes.map { Data(line.utf8) + Data(count: max(0, $0 - line.utf8.count)) }
      let start = monotonicNanoseconds()
      if let blob { settings.blob = blob } else { settings.name = line }
      do { try store.flush() } catch { abort("change-writer: \(error)") }
      FileHandle.standardOutput.write(Data("\(start)\n".utf8))
    }
  }
}

/// This process's resident memory now (`VmRSS`), in bytes.
func residentMemory() -> Int {
  memoryStatus("VmRSS")
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

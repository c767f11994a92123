import Foundation
import Glibc
import ObservableDefaults

/// A one-key change made by `settings-editor write` (a new process) seen by
/// `settings-editor watch` (another process, watching the suite), at 100,000 keys in each
/// format: from the start of the write until the watch prints the new value. Measured for the
/// first change after the watch opened the suite (a new watch each run) and for later ones (one
/// watch), against the floor of the same run: the file read, written to a new file, `fsync`ed
/// and renamed over itself (what a safe one-key write must at least do), until a tiny watcher
/// (a thread blocked on inotify) has read the new file whole (what a watcher must at least do).
struct WatchChangeMeasure {
  let workspace: Workspace
  let runs: Int
  static let keys = 100_000

  func run(into table: ResultTable) {
    let formats: [(String, PropertyListSerialization.PropertyListFormat)] = [
      ("binary", .binary), ("XML", .xml),
    ]
    for (name, format) in formats {
      let suite = "bench-watch-\(Self.keys)-\(format.rawValue)"
      let file = PreferencesDirectory.fileURL(forSuite: suite)
      EditorMeasure.writeSuite(at: file, keys: Self.keys, valueLength: 20, format: format)
      let label = "\(Self.keys.formatted()) keys, \(name)"
      let floor = floorSamples(file)
      table.add(
        ResultRow(
          measure:
            "\(label): read + write + fsync + rename → a tiny inotify watcher's read (the floor)",
          samples: floor, unit: .milliseconds))
      let first = (0..<runs).map { run in
        let watch = WatchProcess(suite: suite)
        defer { watch.stop() }
        return watch.latency(ofWriting: "first-\(run)")
      }
      addRow(
        "\(label): `settings-editor write` → `settings-editor watch` prints it, first change, p50",
        Samples(first), floor: floor, into: table)
      let watch = WatchProcess(suite: suite)
      defer { watch.stop() }
      _ = watch.latency(ofWriting: "warm-up")
      let later = (0..<runs).map { run in watch.latency(ofWriting: "later-\(run)") }
      addRow("…later changes, p50", Samples(later), floor: floor, into: table)
    }
  }

  private func addRow(
    _ measure: String, _ samples: Samples, floor: Samples, into table: ResultTable
  ) {
    table.add(
      ResultRow(
        measure: measure, samples: samples, unit: .milliseconds,
        floor: ("read + write + fsync + rename → inotify read", floor),
        target: Target(text: "≤ 5× the floor", isMet: samples.median <= 5 * floor.median)))
  }

  /// From reading `file` until the tiny watcher has read the file written over it, each run.
  private func floorSamples(_ file: URL) -> Samples {
    let watcher = TinyWatcher(file: file, changes: runs + 1)
    return timeRuns(runs: runs) { _ in
      guard let bytes = FileManager.default.contents(atPath: file.path) else {
        abort("floor: cannot read \(file.path)")
      }
      writeFsyncRename(bytes, to: file.path)
      guard watcher.fired.wait(seconds: 30) != nil else { abort("floor: no inotify event") }
    }
  }
}

/// `settings-editor watch SUITE`, running, with its standard output read line by line.
private final class WatchProcess {
  private let process = Process()
  private let lines: LineChannel
  private let suite: String

  /// Starts the watch and waits until it says it is following changes.
  init(suite: String) {
    self.suite = suite
    process.executableURL = DconfBaseline.editor
    process.arguments = ["watch", suite]
    lines = LineChannel(process)
    let errors = Pipe()
    process.standardError = errors
    do { try process.run() } catch { abort("cannot start settings-editor watch: \(error)") }
    var said = Data()
    while !String(decoding: said, as: UTF8.self).contains("watching") {
      let chunk = errors.fileHandleForReading.availableData
      guard !chunk.isEmpty else {
        abort("settings-editor watch ended: \(String(decoding: said, as: UTF8.self))")
      }
      said.append(chunk)
    }
  }

  /// Seconds from the start of `settings-editor write SUITE name -string VALUE` until the
  /// watch prints the line of the new value.
  func latency(ofWriting value: String) -> Double {
    let start = monotonicNanoseconds()
    let status = SpawnedProgram.run(
      DconfBaseline.editor.path, ["write", suite, "name", "-string", value])
    guard status == 0 else { abort("settings-editor write exited with \(status)") }
    while let line = lines.receive() {
      if line.contains(value) {
        return Double(Int64(bitPattern: monotonicNanoseconds() &- start)) / 1e9
      }
    }
    abort("settings-editor watch ended before printing \(value)")
  }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}

/// The floor's watcher: a thread blocked on an inotify watch of the file's folder that reads
/// the file whole each time a file is renamed to its name, `changes` times, and stamps
/// ``fired`` after each read.
private final class TinyWatcher: @unchecked Sendable {
  let fired = FiredStamp()

  init(file: URL, changes: Int) {
    let descriptor = inotify_init1(Int32(IN_CLOEXEC))
    guard descriptor >= 0,
      inotify_add_watch(
        descriptor, file.deletingLastPathComponent().path, UInt32(IN_MOVED_TO)) >= 0
    else { abort("inotify: errno \(errno)") }
    let name = file.lastPathComponent
    let fired = fired
    Thread.detachNewThread {
      defer { close(descriptor) }
      var buffer = [UInt8](repeating: 0, count: 4096)
      var seen = 0
      while seen < changes {
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { continue }
        var offset = 0
        while offset + 16 <= count {
          let length = buffer.withUnsafeBytes {
            Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          }
          let named = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
          offset += 16 + length
          guard String(decoding: named, as: UTF8.self) == name else { continue }
          blackHole(FileManager.default.contents(atPath: file.path))
          seen += 1
          fired.record()
        }
      }
    }
  }
}

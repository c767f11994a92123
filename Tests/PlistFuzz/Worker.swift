import Foundation
import ObservableDefaultsCore

/// What one input did.
enum Outcome {
  /// Read (and, where the mode writes, written back) exactly.
  case parsed
  /// Refused with a reason, as it should be.
  case refused
  /// Read or written wrongly, or a bound broken: what went wrong.
  case mismatch(String)
}

/// What the fuzzer feeds its inputs to.
enum Mode: String {
  /// Mutated files through the readers and the write path (``ReadMode``).
  case read
  /// Random edits of real suites through the binary draft, its size bounded (``GrowthMode``).
  case growth
  /// Mutated cloud records through the record decoder (``RecordMode``).
  case record
}

/// Runs inputs `from..<from+count` of one mode in this process. Prints `at <index>` before each
/// input and, at the end, `done <parsed> <refused> <mismatches> <peak KiB>`.
enum Worker {
  static func run(
    mode: Mode, seed: UInt64, from: Int, count: Int, fixtures: [Data], scratch: URL
  ) -> Int32 {
    var parsed = 0
    var refused = 0
    var mismatches = 0
    let output = FileHandle.standardOutput
    let file = scratch.appendingPathComponent("fuzz-\(getpid()).plist")
    for index in from..<from + count {
      output.write(Data("at \(index)\n".utf8))
      let outcome: Outcome
      switch mode {
      case .read:
        outcome = ReadMode.run(
          Mutator.input(index, seed: seed, fixtures: fixtures), index: index, through: file,
          keepingIn: scratch)
      case .growth: outcome = GrowthMode.run(index, seed: seed, fixtures: fixtures)
      case .record: outcome = RecordMode.run(index, seed: seed, fixtures: fixtures)
      }
      switch outcome {
      case .parsed: parsed += 1
      case .refused: refused += 1
      case .mismatch(let failure):
        mismatches += 1
        FileHandle.standardError.write(Data("mismatch at \(index): \(failure)\n".utf8))
      }
    }
    try? FileManager.default.removeItem(at: file)
    output.write(Data("done \(parsed) \(refused) \(mismatches) \(peakKiB())\n".utf8))
    return 0
  }

  /// The process's peak resident memory (`VmHWM`), in KiB.
  static func peakKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}

import Foundation
import ObservableDefaultsCore

/// Runs inputs `from..<from+count` in this process: each through the readers (validator, then
/// Foundation), and when it parses, through the write path (saved in its format to a fresh file,
/// read back and compared). Prints `at <index>` before each input and, at the end,
/// `done <parsed> <refused> <mismatches> <peak KiB>`.
enum Worker {
  static func run(seed: UInt64, from: Int, count: Int, fixtures: [Data], scratch: URL) -> Int32 {
    var parsed = 0
    var refused = 0
    var mismatches = 0
    let output = FileHandle.standardOutput
    let file = scratch.appendingPathComponent("fuzz-\(getpid()).plist")
    for index in from..<from + count {
      output.write(Data("at \(index)\n".utf8))
      let data = Mutator.input(index, seed: seed, fixtures: fixtures)
      let reader = PropertyListFile(url: URL(fileURLWithPath: "/fuzz/input-\(index).plist"))
      guard let document = try? reader.document(from: data) else {
        refused += 1
        continue
      }
      parsed += 1
      try? FileManager.default.removeItem(at: file)
      let changes = document.values.mapValues(PropertyListChange.set)
      let empty = PropertyListDocument(values: [:], format: document.format)
      do {
        let saved = try PropertyListFile(url: file).save(changes, over: empty)
        let back = try PropertyListFile(url: file).read()
        if !propertyListValuesEqual(back?.values ?? [:], document.values) || !propertyListValuesEqual(saved.values, document.values) {
          mismatches += 1
          FileHandle.standardError.write(Data("mismatch at \(index)\n".utf8))
          keep(data, written: file, index: index, in: scratch)
        }
      } catch {
        mismatches += 1
        FileHandle.standardError.write(Data("write failed at \(index): \(error)\n".utf8))
      }
    }
    try? FileManager.default.removeItem(at: file)
    output.write(Data("done \(parsed) \(refused) \(mismatches) \(peakKiB())\n".utf8))
    return 0
  }

  /// Keeps an input whose round trip changed it, and what was written, for a replay.
  private static func keep(_ input: Data, written: URL, index: Int, in scratch: URL) {
    guard ProcessInfo.processInfo.environment["PLIST_FUZZ_KEEP"] != nil else { return }
    try? input.write(to: scratch.appendingPathComponent("mismatch-\(index).input"))
    try? FileManager.default.copyItem(at: written, to: scratch.appendingPathComponent("mismatch-\(index).plist"))
  }

  /// The process's peak resident memory (`VmHWM`), in KiB.
  static func peakKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}

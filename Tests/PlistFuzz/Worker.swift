import Foundation
import ObservableDefaultsCore

/// Runs inputs `from..<from+count` in this process: each through the readers (validator, then
/// ours or Foundation's), compared with what Foundation reads from the same bytes, and when it
/// parses, through the write path (saved to a fresh file in its format and, for XML, also as
/// binary; read back by our reader and by Foundation and compared exactly, see
/// ``ExactEquality``). Prints `at <index>` before each input and, at the end,
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
      var failure: String?
      if let foundation = ExactEquality.foundationValues(data),
        !ExactEquality.equal(foundation, document.values)
      {
        failure = "read differently from Foundation"
      }
      let formats: [PropertyListSerialization.PropertyListFormat] =
        document.format == .binary ? [.binary] : [document.format, .binary]
      for format in formats where failure == nil {
        failure = roundTrip(document.values, format: format, through: file)
      }
      if let failure {
        mismatches += 1
        FileHandle.standardError.write(Data("mismatch at \(index): \(failure)\n".utf8))
        keep(data, written: file, index: index, in: scratch)
      }
    }
    try? FileManager.default.removeItem(at: file)
    output.write(Data("done \(parsed) \(refused) \(mismatches) \(peakKiB())\n".utf8))
    return 0
  }

  /// Saves `values` as a new file in `format`, reads it back with our reader and with Foundation;
  /// returns what went wrong, or nil.
  private static func roundTrip(
    _ values: [String: Any], format: PropertyListSerialization.PropertyListFormat, through file: URL
  ) -> String? {
    try? FileManager.default.removeItem(at: file)
    guard !values.isEmpty else { return nil }  // nothing to save: no file is written
    do {
      let saved = try PropertyListFile(url: file).save(
        values.mapValues(PropertyListChange.set),
        over: PropertyListDocument(values: [:], format: format))
      let back = try PropertyListFile(url: file).read()
      guard let back, ExactEquality.equal(back.values, values),
        ExactEquality.equal(saved.values, values)
      else {
        return "changed by a round trip (\(format))"
      }
      guard let written = FileManager.default.contents(atPath: file.path),
        let foundation = ExactEquality.foundationValues(written),
        ExactEquality.equal(foundation, values)
      else { return "written (\(format)) so that Foundation reads other values" }
      return nil
    } catch {
      return "write failed (\(format)): \(error)"
    }
  }

  /// Keeps an input whose round trip changed it, and what was written, for a replay.
  private static func keep(_ input: Data, written: URL, index: Int, in scratch: URL) {
    guard ProcessInfo.processInfo.environment["PLIST_FUZZ_KEEP"] != nil else { return }
    try? input.write(to: scratch.appendingPathComponent("mismatch-\(index).input"))
    try? FileManager.default.copyItem(
      at: written, to: scratch.appendingPathComponent("mismatch-\(index).plist"))
  }

  /// The process's peak resident memory (`VmHWM`), in KiB.
  static func peakKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}

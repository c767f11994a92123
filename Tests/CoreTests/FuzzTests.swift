import Foundation
import TestSupport
import Testing

/// Bounded fuzz runs (`plist-fuzz`, see the DocC article *Files and records from outside*,
/// `Sources/ObservableDefaults/ObservableDefaults.docc/FilesAndRecordsFromOutside.md`), in worker
/// processes, with 0 crashes, 0 hangs over 20 s, no value changed by a round trip and no bound
/// broken: mutated real fixtures through the readers and the write path, random edits of real
/// suites through the binary draft (each file at most twice its values), and mutated cloud
/// records through the record decoder.
@Suite struct FuzzTests {
  @Test(arguments: [("read", 2_000), ("growth", 150), ("record", 2_000)])
  func mutatedInputsNeitherCrashNorHangNorChange(mode: String, inputs: Int) async throws {
    let result = try ChildProcess.run(
      ChildProcess.builtProgram("plist-fuzz"),
      [
        "--mode", mode, "--inputs", "\(inputs)", "--batch", "500", "--seed", "12",
        "--hang-seconds", "20",
      ])
    let output = result.output
    #expect(result.status == 0, "\(output)")
    let summary = try #require(output.split(separator: "\n").last.map(String.init))
    #expect(summary.hasPrefix("mode \(mode) inputs \(inputs) parsed "), "\(summary)")
    #expect(summary.contains(" mismatches 0 crashes 0 hangs 0 "), "\(summary)")
  }

  /// The inputs read mode (seed 41) once found read differently from Foundation (a carriage
  /// return in a string or key, beside a U+0010): each is now parsed and written back exactly.
  @Test(arguments: [39580, 40623, 42651])
  func inputsOnceReadDifferentlyFromFoundationAreReadAsFoundationReadsThem(input: Int) throws {
    let scratch = try TemporaryFolder()
    let result = try ChildProcess.run(
      ChildProcess.builtProgram("plist-fuzz"),
      [
        "worker", "--mode", "read", "--seed", "41", "--from", "\(input)", "--count", "1",
        "--scratch", scratch.url.path,
      ])
    #expect(result.status == 0, "\(result.output)")
    let summary = result.output.split(separator: "\n").last { $0.hasPrefix("done ") }
    #expect(summary?.hasPrefix("done 1 0 0 ") == true, "\(result.output)")
  }
}

import Foundation
import TestSupport
import Testing

/// A bounded fuzz run (`plist-fuzz`, see README: Fuzzing): 2,000 mutated real fixtures through
/// the binary and XML readers and the write path, in worker processes, with 0 crashes, 0 hangs
/// over 5 s and no value changed by a round trip.
@Suite struct FuzzTests {
  @Test func twoThousandMutatedFixturesNeitherCrashNorHangNorChange() async throws {
    let result = try ChildProcess.run(
      ChildProcess.builtProgram("plist-fuzz"),
      ["--inputs", "2000", "--batch", "500", "--seed", "12", "--hang-seconds", "20"])
    let output = result.output
    #expect(result.status == 0, "\(output)")
    let summary = try #require(output.split(separator: "\n").last.map(String.init))
    #expect(summary.hasPrefix("inputs 2000 parsed "), "\(summary)")
    #expect(summary.contains(" mismatches 0 crashes 0 hangs 0 "), "\(summary)")
  }
}

import Foundation
import Testing

/// A bounded fuzz run (`plist-fuzz`, see README: Fuzzing): 2,000 mutated real fixtures through
/// the binary and XML readers and the write path, in worker processes, with 0 crashes, 0 hangs
/// over 5 s and no value changed by a round trip.
@Suite struct FuzzTests {
  static let executable: URL? = CoreProbe.executable.map {
    $0.deletingLastPathComponent().appendingPathComponent("plist-fuzz")
  }

  @Test func twoThousandMutatedFixturesNeitherCrashNorHangNorChange() async throws {
    let executable = try #require(Self.executable)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--inputs", "2000", "--batch", "500", "--seed", "12", "--hang-seconds", "20"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(output)")
    let summary = try #require(output.split(separator: "\n").last.map(String.init))
    #expect(summary.hasPrefix("inputs 2000 parsed "), "\(summary)")
    #expect(summary.contains(" mismatches 0 crashes 0 hangs 0 "), "\(summary)")
  }
}

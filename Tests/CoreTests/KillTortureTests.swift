import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// Writers killed with SIGKILL in the middle of their writes (issue 12): the file always parses
/// (no torn file), every write a writer saw acknowledged is in it, and the temporary files the
/// killed writers left are gone after the next write.
@Suite(.serialized) struct KillTortureTests {
  /// The indexes a probe printed on complete lines (its acknowledged writes).
  func acknowledged(_ probe: ChildProcess) -> [Int] {
    probe.outputSoFar.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .compactMap { Int($0) }
  }

  @Test func twentyWritersKilledMidWriteLoseNoAcknowledgedKeyAndLeaveNoTornFile() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("torture.plist")
      var random = SystemRandomNumberGenerator()
      var expected: [String: Int] = [:]
      for round in 0..<10 {
        var probes: [(ChildProcess, String)] = []
        for writer in 0..<2 {
          let prefix = "r\(round)w\(writer)"
          probes.append((try CoreProbe.start(["write-acked", url.path, prefix]), prefix))
        }
        let target = Int.random(in: 1...40, using: &random)
        let reached = await poll(within: .seconds(60)) {
          probes.allSatisfy { acknowledged($0.0).count >= target }
        }
        #expect(reached, "round \(round): the writers did not acknowledge \(target) writes")
        for (probe, _) in probes {
          kill(probe.processIdentifier, SIGKILL)
          _ = probe.finish()
          #expect(probe.process.terminationReason == .uncaughtSignal)
        }
        for (probe, prefix) in probes {
          for index in acknowledged(probe) { expected["\(prefix)-\(index)"] = index }
        }
        let values = try foundationRead(url)
        for (key, value) in expected {
          #expect(values[key] as? Int == value, "round \(round): acknowledged \(key) is missing")
        }
      }
      _ = try PropertyListFile(url: url).apply(["after": .set(true)])
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      #expect(left == ["torture.plist"])
      // Writes on disk but killed before their acknowledgement was printed are there too.
      let final = try foundationRead(url)
      #expect(final["after"] as? Bool == true)
      #expect(final.count >= expected.count + 1)
    }
  }
}

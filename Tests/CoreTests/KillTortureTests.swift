import Foundation
import ObservableDefaultsCore
import Testing

/// Writers killed with SIGKILL in the middle of their writes (issue 12): the file always parses
/// (no torn file), every write a writer saw acknowledged is in it, and the temporary files the
/// killed writers left are gone after the next write.
@Suite(.serialized) struct KillTortureTests {
  /// A probe's standard output, collected as it comes.
  final class Output: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }
    /// The indexes the probe printed on complete lines (acknowledged writes).
    var acknowledged: [Int] {
      lock.withLock { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { Int($0) } }
    }
  }

  @Test func twentyWritersKilledMidWriteLoseNoAcknowledgedKeyAndLeaveNoTornFile() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("torture.plist")
      var random = SystemRandomNumberGenerator()
      var expected: [String: Int] = [:]
      for round in 0..<10 {
        var probes: [(Process, Output, String)] = []
        for writer in 0..<2 {
          let prefix = "r\(round)w\(writer)"
          let (process, pipe) = try CoreProbe.start(["write-acked", url.path, prefix])
          let output = Output()
          pipe.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
          probes.append((process, output, prefix))
        }
        let target = Int.random(in: 1...40, using: &random)
        let reached = await poll(seconds: 60) { probes.allSatisfy { $0.1.acknowledged.count >= target } }
        #expect(reached, "round \(round): the writers did not acknowledge \(target) writes")
        for (process, _, _) in probes {
          kill(process.processIdentifier, SIGKILL)
          process.waitUntilExit()
          #expect(process.terminationReason == .uncaughtSignal)
        }
        for (_, output, prefix) in probes {
          for index in output.acknowledged { expected["\(prefix)-\(index)"] = index }
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

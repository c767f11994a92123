import Foundation
import TestSupport
import Testing

/// The storage's standing oracle in its short form (`storage-torture`, see the DocC article
/// *Testing the storage*): fixed seeds, each run doing every operation at least once — our
/// writers on binary, XML and full suites, foreign writers, `kill -9`, injected I/O and
/// allocation failures, a full disk, a file past the read limit, the splice race — with no
/// violation of the reference model: every acknowledged write on disk or superseded, the file
/// parsed by python's plistlib after every step, our reader agreeing with it, observers told
/// exactly of the keys whose values changed, no key merged, lost or invented.
@Suite(.serialized) struct StorageTortureTests {
  /// One step per operation (the first steps of a run are one of each, in a seeded order).
  static let steps = 15

  @Test(arguments: [11, 12] as [UInt64])
  func aShortSeededRunBreaksNoRuleOfTheModel(seed: UInt64) throws {
    let result = try ChildProcess.run(
      ChildProcess.builtProgram("storage-torture"),
      ["--seed", "\(seed)", "--steps", "\(Self.steps)"])
    let lines = result.output.split(separator: "\n").map(String.init)
    let summary = try #require(lines.first { $0.hasPrefix("storage-torture seed ") }, "\(result)")
    #expect(summary.contains(" steps \(Self.steps) "), "\(summary)")
    #expect(summary.contains(" violations 0 "), "\(result.output)")
    #expect(result.status == 0, "\(result.output)\(result.error)")
    // Every operation ran, and each kind of fault happened.
    let operations = try #require(lines.first { $0.hasPrefix("operations ") })
    let counts = operations.dropFirst("operations ".count).split(separator: " ").map {
      $0.split(separator: "=")
    }
    #expect(counts.count == 15, "\(operations)")
    for count in counts {
      #expect(Int(count[1]) ?? 0 >= 1, "\(count[0]) never ran: \(operations)")
    }
    for field in ["processes", "kills", "injected-failures", "foreign-writes", "acknowledged"] {
      #expect(number(field, in: summary) >= 1, "\(field): \(summary)")
    }
    // As root (as CI runs) nothing is left out: the notes say what a run could not do (mount
    // the 1 MiB tmpfs and the ext4 image with 1-second timestamps, load libfiu or libfaketime,
    // build the allocation shim, find plutil).
    if getuid() == 0 { #expect(!result.output.contains("note: "), "\(result.output)") }
  }

  private func number(_ field: String, in summary: String) -> Int {
    let fields = summary.split(separator: " ")
    guard let index = fields.firstIndex(of: Substring(field)), index + 1 < fields.count else {
      return 0
    }
    return Int(fields[index + 1]) ?? 0
  }
}

import Foundation
import TestSupport
import Testing

/// The storage's standing oracle in its short form (`storage-torture`, see the DocC article
/// *Testing the storage*), with fixed seeds: one step of every operation — our writers on binary,
/// XML and full suites, foreign writers, `kill -9`, injected I/O and allocation failures, a full
/// disk, a file past the read limit, the splice race — then more steps of the cheap ones that
/// race; with no violation of the reference model: every acknowledged write on disk or
/// superseded, the file parsed by python's plistlib after every step, our reader agreeing with it,
/// observers told exactly of the keys whose values changed, no key merged, lost or invented.
@Suite(.serialized) struct StorageTortureTests {
  /// The operations of a run (see `Tests/StorageTorture/Operation.swift`).
  static let operationCount = 15

  /// The summary and operation lines of a run that ended with no violation.
  private func run(_ arguments: [String]) throws -> (summary: String, operations: [String: Int]) {
    let result = try ChildProcess.run(ChildProcess.builtProgram("storage-torture"), arguments)
    let lines = result.output.split(separator: "\n").map(String.init)
    let summary = try #require(lines.first { $0.hasPrefix("storage-torture seed ") }, "\(result)")
    #expect(summary.contains(" violations 0 "), "\(result.output)")
    #expect(result.status == 0, "\(result.output)\(result.error)")
    // As root (as CI runs) nothing is left out: the notes say what a run could not do (mount
    // the 1 MiB tmpfs and the ext4 image with 1-second timestamps, load libfiu or libfaketime,
    // build the allocation shim, find plutil).
    if getuid() == 0 { #expect(!result.output.contains("note: "), "\(result.output)") }
    let operations = try #require(lines.first { $0.hasPrefix("operations ") })
    let counts = operations.dropFirst("operations ".count).split(separator: " ").map {
      $0.split(separator: "=").map(String.init)
    }
    return (summary, Dictionary(uniqueKeysWithValues: counts.map { ($0[0], Int($0[1]) ?? 0) }))
  }

  /// One step of each operation (the first steps of a run are one of each, in a seeded order).
  @Test func everyOperationOnceBreaksNoRuleOfTheModel() throws {
    let (summary, operations) = try run(["--seed", "11", "--steps", "\(Self.operationCount)"])
    #expect(summary.contains(" steps \(Self.operationCount) "), "\(summary)")
    #expect(operations.count == Self.operationCount, "\(operations)")
    for (operation, count) in operations {
      #expect(count == 1, "\(operation) ran \(count) times")
    }
    // "spliced": writes of a process that writes and exits, spliced into the file's bytes;
    // "first-reads": processes that opened a suite during a locked rewrite in place.
    for field in [
      "processes", "kills", "injected-failures", "foreign-writes", "acknowledged", "spliced",
      "first-reads",
    ] {
      #expect(number(field, in: summary) >= 1, "\(field): \(summary)")
    }
  }

  /// More interleavings of the cheap operations that race: kills, I/O failures, writers at once,
  /// other programs writing in place, the splice race, keys equal only under normalisation.
  @Test func racingOperationsBreakNoRuleOfTheModel() throws {
    let racing = [
      "kill", "io-failure", "concurrent-writes", "foreign-in-place-race", "foreign-in-place-locked",
      "splice-race", "normalisation",
    ]
    let (summary, operations) = try run([
      "--seed", "12", "--steps", "21", "--only", racing.joined(separator: ","),
    ])
    #expect(summary.contains(" steps 21 "), "\(summary)")
    for operation in racing {
      #expect(operations[operation] ?? 0 >= 1, "\(operation) never ran: \(operations)")
    }
  }

  private func number(_ field: String, in summary: String) -> Int {
    let fields = summary.split(separator: " ")
    guard let index = fields.firstIndex(of: Substring(field)), index + 1 < fields.count else {
      return 0
    }
    return Int(fields[index + 1]) ?? 0
  }
}

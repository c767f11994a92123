import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// The versions of the steps that ran, in order.
final class StepRuns: Sendable {
  private let list = Mutex<[Int]>([])
  func record(_ version: Int) { list.withLock { $0.append(version) } }
  var versions: [Int] { list.withLock { $0 } }
}

/// Versioned suite migrations: each step once per suite, under the file's lock, in one atomic
/// write — also with two processes starting at once, and when the migrating process is killed.
@Suite struct SuiteMigrationTests {
  private let versionOne: [String: Any] = ["name": "Ann", "timeout": 300, "age": 41]

  private func expectFullyMigrated(_ file: URL) throws {
    let values = try foundationRead(file)
    #expect(
      values.keys.sorted() == [
        "ObservableDefaults.schemaVersion", "age", "displayName", "timeoutMinutes",
      ])
    #expect(values["ObservableDefaults.schemaVersion"] as? Int == 2)
    #expect(values["displayName"] as? String == "Ann")
    #expect(values["timeoutMinutes"] as? Double == 5.0)
    #expect(values["age"] as? Int == 41)
  }

  /// The probe's schema (Tests/CoreProbe/ProbeMigration.swift) for this process, counting how
  /// often each step runs in `runs`.
  private func migrations(counting runs: StepRuns) -> SuiteMigrations {
    SuiteMigrations([
      SuiteMigrationStep(to: 1, "rename name to displayName") { suite in
        runs.record(1)
        suite.rename("name", to: "displayName")
      },
      SuiteMigrationStep(to: 2, "timeout in seconds becomes timeoutMinutes") { suite in
        runs.record(2)
        try suite.convert("timeout", from: Int.self) { Double($0) / 60 }
        suite.rename("timeout", to: "timeoutMinutes")
      },
    ])
  }

  private func logLines(_ log: URL) throws -> [String] {
    try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  @Test func stepsRunOnceAndRecordTheVersionInOneWrite() async throws {
    try await withTemporaryFolder { folder in
      let file = folder.file("suite.plist")
      try foundationWrite(versionOne, to: file)
      let defaults = PropertyListDefaults(fileURL: file)
      let runs = StepRuns()
      let migrations = migrations(counting: runs)
      let writesBefore = PropertyListCounters.counts(for: file).writes
      let plan = try defaults.migrate(migrations)
      #expect(plan.recordedVersion == 0)
      #expect(plan.steps.map(\.version) == [1, 2])
      #expect(plan.changedKeys == ["displayName", "name", "timeout", "timeoutMinutes"])
      #expect(PropertyListCounters.counts(for: file).writes == writesBefore + 1)
      try expectFullyMigrated(file)
      #expect(defaults.object(forKey: "displayName") as? String == "Ann")
      #expect(defaults.object(forKey: "name") == nil)
      #expect(try defaults.migrate(migrations).steps.isEmpty)
      #expect(runs.versions == [1, 2])
    }
  }

  @Test func aDryRunChangesNothing() async throws {
    try await withTemporaryFolder { folder in
      let file = folder.file("suite.plist")
      try foundationWrite(versionOne, to: file)
      let before = try Data(contentsOf: file)
      let runs = StepRuns()
      let plan = try PropertyListDefaults(fileURL: file).migrationPlan(migrations(counting: runs))
      #expect(
        plan.steps.map(\.summary) == [
          "rename name to displayName", "timeout in seconds becomes timeoutMinutes",
        ])
      #expect(plan.values["timeoutMinutes"] as? Double == 5.0)
      #expect(try Data(contentsOf: file) == before)
    }
  }

  @Test func aThrowingStepWritesNothing() async throws {
    struct Refused: Error {}
    try await withTemporaryFolder { folder in
      let file = folder.file("suite.plist")
      try foundationWrite(versionOne, to: file)
      let before = try Data(contentsOf: file)
      let migrations = SuiteMigrations([
        SuiteMigrationStep(to: 1, "rename") { $0.rename("name", to: "displayName") },
        SuiteMigrationStep(to: 2, "refuse") { _ in throw Refused() },
      ])
      #expect(throws: Refused.self) { try PropertyListDefaults(fileURL: file).migrate(migrations) }
      #expect(try Data(contentsOf: file) == before)
    }
  }

  @Test func aSuiteOfANewerVersionIsLeftAlone() async throws {
    try await withTemporaryFolder { folder in
      let file = folder.file("suite.plist")
      try foundationWrite(
        versionOne.merging(["ObservableDefaults.schemaVersion": 3]) { $1 }, to: file)
      let runs = StepRuns()
      let plan = try PropertyListDefaults(fileURL: file).migrate(migrations(counting: runs))
      #expect(plan.steps.isEmpty)
      #expect(runs.versions == [])
      #expect(try foundationRead(file)["name"] as? String == "Ann")
    }
  }

  @Test func twoProcessesStartingAtOnceRunEachStepOnce() async throws {
    try await withTemporaryFolder { folder in
      let file = folder.file("suite.plist")
      let log = folder.file("log")
      let go = folder.file("go")
      try foundationWrite(versionOne, to: file)
      let first = try CoreProbe.start(["migrate", file.path, log.path, go.path])
      let second = try CoreProbe.start(["migrate", file.path, log.path, go.path])
      _ = FileManager.default.createFile(atPath: go.path, contents: Data())
      let results = [first.finish(), second.finish()]
      #expect(results.map(\.status) == [0, 0])
      #expect(results.map(\.output).sorted() == ["ran\n", "ran 1 2\n"])
      let lines = try logLines(log)
      #expect(lines.map { $0.prefix(2) } == ["1 ", "2 "])
      #expect(Set(lines.map { $0.dropFirst(2) }).count == 1, "both steps ran in one process")
      try expectFullyMigrated(file)
    }
  }

  @Test func aKilledMigrationLeavesTheSuiteFullyOld() async throws {
    try await withTemporaryFolder { folder in
      let file = folder.file("suite.plist")
      let log = folder.file("log")
      try foundationWrite(versionOne, to: file)
      let before = try Data(contentsOf: file)
      let blocked = try CoreProbe.start(["migrate-blocking", file.path, log.path])
      let reachedStepTwo = await poll { (try? logLines(log))?.last == "2 started" }
      #expect(reachedStepTwo)
      kill(blocked.processIdentifier, SIGKILL)
      _ = blocked.finish()
      #expect(blocked.process.terminationReason == .uncaughtSignal)
      #expect(try Data(contentsOf: file) == before, "step 1's rename was not written on its own")

      let go = folder.file("go")
      _ = FileManager.default.createFile(atPath: go.path, contents: Data())
      let rerun = try CoreProbe.run(["migrate", file.path, log.path, go.path])
      #expect(rerun.output == "ran 1 2\n")
      try expectFullyMigrated(file)
    }
  }
}

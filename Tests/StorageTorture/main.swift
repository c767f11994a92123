// storage-torture: the storage's standing oracle (issue 37). Random, seeded interleavings of our
// writer processes, foreign writers, kill -9 and injected failures on three suite files, checked
// after every step against a reference model (see SuiteModel.swift and the DocC article
// "Testing the storage").
//
//   storage-torture [--seed N] [--steps K] [--minutes M] [--only OP,…] [--verbose]
//       runs K steps (default 60), or steps until M minutes have passed; prints each violation
//       with its seed, step and the command that replays it (and where the suite's file at the
//       step's first violation is kept, under $TMPDIR/storage-torture-kept), then one summary line:
//       seed, steps, processes, kills, injected failures, foreign writes, acknowledged and spliced
//       writes, first reads during a locked rewrite, violations, seconds,
//       and one line of operation counts (--verbose: each step's operation and duration too).
//       --only runs only the operations named (see Operation.swift), e.g. --only splice-race.
//       Exits 1 when there was a violation.
//   storage-torture writer FILE      one of our writers (WriterRole.swift)
//   storage-torture observer FILE    an observer of the suite (ObserverRole.swift)
//   storage-torture first-read FILE  prints what opening the suite read (FirstReaderRole.swift)
//       (the driver also sets STORAGE_TORTURE_ROLE and STORAGE_TORTURE_FILE for them)
//
// The first steps of a run are one of each operation in a seeded order, so every run of at least
// as many steps as there are operations does each at least once.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

// The driver names a child's role in its environment too: a process with libfaketime preloaded
// does not get its arguments (it ran as a second driver).
let environment = ProcessInfo.processInfo.environment
let role = environment["STORAGE_TORTURE_ROLE"] ?? arguments.first
let roleFile = environment["STORAGE_TORTURE_FILE"] ?? (arguments.count == 2 ? arguments[1] : nil)
switch (role, roleFile) {
case ("writer", let file?): WriterRole.run(file: file)
case ("observer", let file?): ObserverRole.run(file: file)
case ("first-read", let file?): FirstReaderRole.run(file: file)
default: break
}

signal(SIGPIPE, SIG_IGN)
let seed = option("--seed").flatMap { UInt64($0) } ?? 1
let minutes = option("--minutes").flatMap { Double($0) }
let steps = option("--steps").flatMap { Int($0) } ?? (minutes == nil ? 60 : Int.max)
let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Resources")
let started = Date()

let workspace: Workspace
let driver: Driver
do {
  workspace = try Workspace(resources: resources)
  driver = try Driver(
    seed: seed, workspace: workspace, executable: executable, resources: resources)
} catch {
  say("storage-torture: \(error)")
  exit(2)
}
let signalSources = workspace.removeOnSignals()
driver.isVerbose = arguments.contains("--verbose")
driver.replayOptions = option("--only").map { " --only \($0)" } ?? ""

let chosen =
  option("--only").map { $0.split(separator: ",").compactMap { Operation(rawValue: String($0)) } }
  ?? Operation.allCases
var schedule = chosen.shuffled(using: &driver.random)
let weighted = chosen.flatMap { Array(repeating: $0, count: $0.weight) }
while driver.step < steps {
  if let minutes, Date().timeIntervalSince(started) > minutes * 60 { break }
  let operation =
    schedule.isEmpty ? weighted.randomElement(using: &driver.random)! : schedule.removeFirst()
  driver.run(operation)
  driver.step += 1
}
driver.finish()
workspace.remove()
let counts = driver.counts
say(
  "storage-torture seed \(seed) steps \(driver.step) processes \(counts.processes) kills \(counts.kills) "
    + "injected-failures \(counts.injectedFailures) refused-writes \(counts.refusedWrites) "
    + "foreign-writes \(counts.foreignWrites) acknowledged \(counts.acknowledged) "
    + "spliced \(counts.spliced) first-reads \(counts.firstReads) "
    + "violations \(counts.violations) seconds \(Int(Date().timeIntervalSince(started)))")
say(
  "operations "
    + Operation.allCases.map { "\($0.rawValue)=\(counts.operations[$0] ?? 0)" }.joined(
      separator: " "))
exit(counts.violations == 0 ? 0 : 1)

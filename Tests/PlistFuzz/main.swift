// plist-fuzz: mutated real property lists through the readers and the write path.
//
//   plist-fuzz [--mode M] [--inputs N] [--seed S] [--batch B] [--hang-seconds T] [--fixtures DIR]
//       runs N inputs (default 100000) of mode M (default read) in worker processes of B inputs
//       (default 2000); prints one summary line: mode, inputs, parsed, refused, mismatches,
//       crashes, hangs, peak memory of a worker; exits 1 when anything crashed, hung, did not
//       round-trip or broke a bound.
//       Modes: read (mutated files through the readers and the write path), growth (random
//       edits of real suites through the binary draft, the file's size bounded), record
//       (mutated cloud records through the record decoder).
//   plist-fuzz worker --mode M --seed S --from I --count N --fixtures DIR --scratch DIR
//       runs inputs I..<I+N in this process (what the supervisor starts; also to replay one).
//
// Inputs are deterministic: input i of seed s is the same in every run. Fixtures default to
// Tests/Fixtures/plists beside this file.
import Foundation

func option(_ name: String, _ fallback: String) -> String {
  let arguments = CommandLine.arguments
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else {
    return fallback
  }
  return arguments[index + 1]
}

let defaultFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Fixtures/plists").path
let fixturesPath = option("--fixtures", defaultFixtures)
let fixtures = ((try? FileManager.default.contentsOfDirectory(atPath: fixturesPath)) ?? [])
  .filter { $0.hasSuffix(".plist") }.sorted()
  .compactMap { FileManager.default.contents(atPath: fixturesPath + "/" + $0) }
guard !fixtures.isEmpty else {
  FileHandle.standardError.write(Data("plist-fuzz: no fixtures in \(fixturesPath)\n".utf8))
  exit(2)
}
let seed = UInt64(option("--seed", "1")) ?? 1
guard let mode = Mode(rawValue: option("--mode", "read")) else {
  FileHandle.standardError.write(Data("plist-fuzz: --mode is read, growth or record\n".utf8))
  exit(2)
}

if CommandLine.arguments.dropFirst().first == "worker" {
  let scratch = URL(fileURLWithPath: option("--scratch", NSTemporaryDirectory()))
  exit(
    Worker.run(
      mode: mode, seed: seed, from: Int(option("--from", "0")) ?? 0,
      count: Int(option("--count", "1")) ?? 1,
      fixtures: fixtures, scratch: scratch))
}

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
  "plist-fuzz-\(getpid())")
try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }
let started = Date()
let totals = Supervisor(
  mode: mode, seed: seed, inputs: Int(option("--inputs", "100000")) ?? 100_000,
  batch: Int(option("--batch", "2000")) ?? 2000,
  hangSeconds: Double(option("--hang-seconds", "5")) ?? 5, fixturesPath: fixturesPath,
  scratch: scratch
).run()
for finding in totals.findings { print(finding) }
print(
  "mode \(mode.rawValue) inputs \(totals.inputs) parsed \(totals.parsed) refused \(totals.refused) mismatches \(totals.mismatches) "
    + "crashes \(totals.crashes) hangs \(totals.hangs) peak-worker-KiB \(totals.peakKiB) "
    + "seconds \(Int(Date().timeIntervalSince(started)))")
try? FileManager.default.removeItem(at: scratch)
exit(totals.crashes + totals.hangs + totals.mismatches == 0 ? 0 : 1)

import Foundation
import Synchronization
import Testing

/// The sync fault matrix's long mode: its faults again and again, in a seeded random order and
/// with random timings (when a fault starts after the last write, how far apart the writes
/// during it come, how long it lasts once the device settled), each run's row checked against
/// the DocC guide's as in the short mode (``SyncFaultMatrix/expectDocumented(_:sourceLocation:)``),
/// for ``minutesVariable`` minutes. As a Jepsen nemesis varies its schedule, the timings find
/// what one fixed schedule does not.
///
/// ```sh
/// SYNC_FAULT_MATRIX_MINUTES=10 swift test --filter FaultMatrixLongRunTests
/// SYNC_FAULT_MATRIX_MINUTES=10 SYNC_FAULT_MATRIX_SEED=7 swift test --filter NATSFaultMatrixLongRunTests
/// ```
///
/// The tests of the long mode are disabled unless the variable is set (so `scripts/test` runs
/// only the short mode). A run prints `sync-fault-matrix <engine> seed S minutes M runs N
/// mismatches K`, the runs of each fault, and each mismatch with the seed that replays the order.
public final class SyncFaultSoak: Sendable {
  /// The environment variable giving a long run's minutes: `SYNC_FAULT_MATRIX_MINUTES`.
  public static let minutesVariable = "SYNC_FAULT_MATRIX_MINUTES"
  /// The environment variable giving its seed (else one from the clock, printed):
  /// `SYNC_FAULT_MATRIX_SEED`.
  public static let seedVariable = "SYNC_FAULT_MATRIX_SEED"

  /// The soak the current task runs a fault for (nil in the short mode: no random timing).
  @TaskLocal public static var current: SyncFaultSoak?

  /// Whether the environment asks for a long run.
  public static var isRequested: Bool {
    ProcessInfo.processInfo.environment[minutesVariable].flatMap(Double.init) != nil
  }

  /// The seed of the order and timings.
  public let seed: UInt64
  private let minutes: Double
  private let state: Mutex<State>

  private struct State {
    var generator: SeededGenerator
    var runs: [String: Int] = [:]
    var mismatches: [String] = []
  }

  /// A soak of the environment's minutes and seed (1 minute without the variable).
  public init() {
    let environment = ProcessInfo.processInfo.environment
    minutes = environment[Self.minutesVariable].flatMap(Double.init) ?? 1
    seed =
      environment[Self.seedVariable].flatMap { UInt64($0) }
      ?? UInt64(Date().timeIntervalSince1970 * 1000)
    state = Mutex(State(generator: SeededGenerator(seed: seed)))
  }

  /// Runs `faults` (name and the short mode's test of it) in a random order until the minutes
  /// have passed, each with random timings, and prints the counts; each mismatch with the guide
  /// and each run that throws is also an issue of the test.
  ///
  /// - Parameter engine: The engine's name in the summary line.
  public func run(_ engine: String, _ faults: [(name: String, test: () async throws -> Void)])
    async
  {
    let end = ContinuousClock.now + .seconds(minutes * 60)
    print("sync-fault-matrix \(engine) seed \(seed) minutes \(minutes): starting")
    while ContinuousClock.now < end {
      let count = faults.count
      let fault = faults[state.withLock { Int.random(in: 0..<count, using: &$0.generator) }]
      do {
        try await Self.$current.withValue(self) { try await fault.test() }
      } catch {
        note(mismatch: "\(fault.name): threw \(error)")
        Issue.record("\(fault.name) threw \(error) (replay: \(Self.seedVariable)=\(seed))")
      }
      let runs = state.withLock { state in
        state.runs[fault.name, default: 0] += 1
        return state.runs.values.reduce(0, +)
      }
      print("sync-fault-matrix \(engine) run \(runs): \(fault.name)")
    }
    let (runs, mismatches) = state.withLock { ($0.runs, $0.mismatches) }
    print(
      "sync-fault-matrix \(engine) seed \(seed) minutes \(minutes) runs"
        + " \(runs.values.reduce(0, +)) mismatches \(mismatches.count)")
    for (name, count) in runs.sorted(by: { $0.key < $1.key }) { print("  \(count)× \(name)") }
    for mismatch in mismatches {
      print("  mismatch: \(mismatch) (replay: \(Self.seedVariable)=\(seed))")
    }
  }

  /// Holds the fault's schedule for a random time up to `longest` (nothing in the short mode).
  ///
  /// This is a fault's timing, not a wait for a state (those go through `poll`): the long mode
  /// varies when a fault begins, how far apart writes come and how long a fault lasts.
  public static func hold(upTo longest: Duration = .seconds(3)) async {
    guard let soak = current else { return }
    let milliseconds =
      longest.components.seconds * 1000
      + longest.components.attoseconds / 1_000_000_000_000_000
    let chosen = soak.state.withLock { Int64.random(in: 0...milliseconds, using: &$0.generator) }
    try? await Task.sleep(for: .milliseconds(chosen))
  }

  /// Notes a row that differs from the guide's (or a run that threw).
  func note(mismatch: String) {
    state.withLock { $0.mismatches.append(mismatch) }
  }
}

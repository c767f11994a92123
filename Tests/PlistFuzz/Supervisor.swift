import Foundation

/// Runs a long fuzz campaign in worker processes of this program, so a crash or a hang costs one
/// input, not the run: a worker that dies by a signal is a crash at its current input; one that
/// spends more than the hang limit on one input is killed and counted as a hang. Either way a
/// new worker resumes at the next input.
struct Supervisor {
  let mode: Mode
  let seed: UInt64
  let inputs: Int
  let batch: Int
  let hangSeconds: Double
  let fixturesPath: String
  let scratch: URL

  struct Totals {
    var inputs = 0, parsed = 0, refused = 0, mismatches = 0, crashes = 0, hangs = 0, peakKiB = 0
    var findings: [String] = []
  }

  func run() -> Totals {
    var totals = Totals()
    var next = 0
    while next < inputs {
      let count = min(batch, inputs - next)
      let (reached, report, status) = runWorker(from: next, count: count)
      if let report {
        let fields = report.split(separator: " ").compactMap { Int($0) }
        totals.parsed += fields[0]
        totals.refused += fields[1]
        totals.mismatches += fields[2]
        totals.peakKiB = max(totals.peakKiB, fields[3])
        next += count
      } else {
        let index = reached ?? next
        totals.findings.append("\(status) at input \(index) (seed \(seed))")
        if status == "hang" { totals.hangs += 1 } else { totals.crashes += 1 }
        next = index + 1
      }
    }
    totals.inputs = inputs
    return totals
  }

  /// Runs one worker; returns the last input it started, its `done` report (nil when it crashed
  /// or hung) and what happened.
  private func runWorker(from: Int, count: Int) -> (Int?, String?, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    process.arguments = [
      "worker", "--mode", mode.rawValue, "--seed", "\(seed)", "--from", "\(from)", "--count",
      "\(count)",
      "--fixtures", fixturesPath, "--scratch", scratch.path,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    let state = WorkerState()
    pipe.fileHandleForReading.readabilityHandler = { handle in
      let text = String(decoding: handle.availableData, as: UTF8.self)
      state.receive(text)
    }
    do { try process.run() } catch { return (nil, nil, "could not start worker: \(error)") }
    var hung = false
    while process.isRunning {
      usleep(50_000)
      if state.secondsOnCurrentInput() > hangSeconds {
        hung = true
        kill(process.processIdentifier, SIGKILL)
        break
      }
    }
    process.waitUntilExit()
    pipe.fileHandleForReading.readabilityHandler = nil
    state.receive(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    if hung { return (state.current, nil, "hang") }
    if process.terminationReason == .uncaughtSignal {
      return (state.current, nil, "crash (signal \(process.terminationStatus))")
    }
    return (
      state.current, state.done,
      process.terminationStatus == 0 ? "ok" : "exit \(process.terminationStatus)"
    )
  }
}

/// What a worker reported so far, from its output lines.
final class WorkerState: @unchecked Sendable {
  private let lock = NSLock()
  private var partial = ""
  private(set) var current: Int?
  private(set) var done: String?
  private var startedAt = Date()

  func receive(_ text: String) {
    lock.withLock {
      partial += text
      while let newline = partial.firstIndex(of: "\n") {
        let line = partial[..<newline]
        if line.hasPrefix("at ") {
          current = Int(line.dropFirst(3))
          startedAt = Date()
        } else if line.hasPrefix("done ") {
          done = String(line.dropFirst(5))
        }
        partial = String(partial[partial.index(after: newline)...])
      }
    }
  }

  func secondsOnCurrentInput() -> Double {
    lock.withLock { done == nil ? Date().timeIntervalSince(startedAt) : 0 }
  }
}

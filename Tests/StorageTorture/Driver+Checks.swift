import Foundation
import ObservableDefaultsTesting

/// The checks after each step: the file against the model, the observer against the file, the
/// observer's reports against the keys that changed.
extension Driver {
  /// Prints a violation with the seed, the step and the command that replays it.
  func violation(_ suite: Suite, _ message: String) {
    // A state that stays wrong is one violation, not one a step.
    guard suite.reported.insert(message).inserted else { return }
    counts.violations += 1
    violationsThisStep += 1
    guard violationsThisStep <= printedViolationsPerStep else { return }
    say(
      "VIOLATION seed \(seed) step \(step) (\(operation.rawValue), suite \(suite.name)): \(message)\n"
        + "  replay: storage-torture --seed \(seed) --steps \(step + 1)\(replayOptions)")
    if violationsThisStep == 1, let kept = keep(suite) { say("  the file is kept at \(kept)") }
  }

  /// A copy of `suite`'s file as it is now, outside the workspace (which the run removes), for a
  /// violation that does not replay (a race): its path, or nil when it cannot be copied.
  private func keep(_ suite: Suite) -> String? {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "storage-torture-kept")
    let copy = folder.appendingPathComponent("seed-\(seed)-step-\(step)-\(suite.name).plist").path
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? FileManager.default.removeItem(atPath: copy)
    return (try? FileManager.default.copyItem(atPath: suite.path, toPath: copy)).map { copy }
  }

  /// Checks `suite` against its model: the file parses with python's plistlib and holds what the
  /// model allows; the observer reads the same values and was told exactly of the keys that
  /// changed (and of no key nobody wrote). Then the model is the file.
  func check(_ suite: Suite, within deadline: Duration = .seconds(10)) {
    guard !suite.isBroken else { return }
    guard let values = readFile(suite) else {
      suite.isBroken = true
      return
    }
    for line in suite.model.disagreements(with: values) { violation(suite, line) }
    suite.model.settle(values)
    suite.lastValues = values
    suite.knownKeys.formUnion(values.keys)
    checkObserver(suite, against: values, within: deadline)
    suite.touchedBefore = suite.touched
    suite.touched = []
  }

  func checkObserver(
    _ suite: Suite, against values: [String: String], within deadline: Duration
  ) {
    guard let observer = suite.observer, observer.ending == nil else {
      violation(
        suite,
        "the observer died: \(suite.observer?.ending ?? "") \(suite.observer?.errorTail ?? "")")
      startObserver(suite)
      suite.observerValues = values
      return
    }
    var dump = ObserverDump()
    let agreed = pollBlocking(within: deadline) {
      dump = self.dump(observer, keys: suite.knownKeys)
      return dump.values == values && dump.extra.isEmpty
    }
    if !agreed {
      let keys = Set(dump.values.keys).union(values.keys).filter { dump.values[$0] != values[$0] }
        .sorted()
      let shown = keys.prefix(3).map {
        "\(SuiteModel.show($0)): ours \(SuiteModel.show(code: dump.values[$0])), plistlib \(SuiteModel.show(code: values[$0]))"
      }
      violation(
        suite,
        "our reader disagrees with plistlib on \(keys.count) keys (\(shown.joined(separator: "; ")))"
          + (dump.extra.isEmpty
            ? "" : "; it holds keys nobody wrote: \(dump.extra.prefix(3).map(SuiteModel.show))")
          + (dump.error.map { "; its last error: \($0)" } ?? ""))
    }
    let changed = Set(suite.observerValues.keys).union(dump.values.keys).filter {
      suite.observerValues[$0] != dump.values[$0]
    }
    var told = Set<String>()
    pollBlocking(within: .seconds(2)) {
      told = reportedKeys(observer, from: suite.checkedLines)
      return changed.isSubset(of: told)
    }
    suite.checkedLines = observer.lineCount
    observer.forget(before: suite.checkedLines)
    let missed = changed.subtracting(told)
    if !missed.isEmpty {
      violation(
        suite,
        "observers were not told of \(missed.count) changed keys: \(missed.sorted().prefix(5).map(SuiteModel.show))"
      )
    }
    let allowed = changed.union(suite.touched).union(suite.touchedBefore)
    let unchanged = told.subtracting(allowed)
    if !unchanged.isEmpty {
      violation(
        suite,
        "observers were told of \(unchanged.count) keys whose value did not change and nobody wrote: "
          + "\(unchanged.sorted().prefix(5).map(SuiteModel.show))")
    }
    suite.observerValues = dump.values
  }

  /// What an observer read: key hex → code, keys it holds that were not asked for, its last error.
  struct ObserverDump {
    var values: [String: String] = [:]
    var extra: [String] = []
    var error: String?
  }

  func dump(_ observer: Agent, keys: Set<String>) -> ObserverDump {
    let start = observer.lineCount
    observer.send("dump " + keys.sorted().joined(separator: " "))
    return dumpAnswer(of: observer, from: start)
  }

  /// The first dump `agent` printed from its line `start` on.
  func dumpAnswer(of agent: Agent, from start: Int) -> ObserverDump {
    guard
      let (begin, _) = agent.waitForLine(
        from: start, within: .seconds(30), where: { $0 == "values" }),
      let (end, _) = agent.waitForLine(from: begin, within: .seconds(30), where: { $0 == "end" })
    else { return ObserverDump(error: "no answer") }
    var result = ObserverDump()
    for line in agent.lines(from: begin + 1).prefix(end - begin - 1) {
      let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
      switch fields.first {
      case "v" where fields.count == 3: result.values[fields[1]] = fields[2]
      case "x" where fields.count == 2: result.extra.append(fields[1])
      case "e": result.error = String(line.dropFirst(2))
      default: break
      }
    }
    return result
  }

  func reportedKeys(_ observer: Agent, from start: Int) -> Set<String> {
    var keys = Set<String>()
    for line in observer.lines(from: start) where line.hasPrefix("change ") {
      let fields = line.split(separator: " ")
      guard fields.count == 3, fields[2] != "-" else { continue }
      keys.formUnion(fields[2].split(separator: ",").map(String.init))
    }
    return keys
  }

  /// After a file that did not parse: it is written again from the last good values, and its
  /// writers and observer start afresh, so the run goes on.
  func restore(_ suite: Suite) {
    guard suite.isBroken else { return }
    let entries = suite.lastValues.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    _ = helperRequest(["write", suite.path, suite.format] + entries)
    for slot in Array(suite.writers.keys) { retire(suite, slot) }
    if let values = readFile(suite) {
      suite.model.settle(values)
      startObserver(suite)
      suite.observerValues = values
    }
    suite.touched = []
    suite.touchedBefore = []
    suite.isBroken = false
  }
}

import Foundation
import ObservableDefaultsTesting
import TestSupport

/// Runs the seeded steps of one run, checks the model after each, and counts.
final class Driver {
  let seed: UInt64
  var random: SeededGenerator
  let workspace: Workspace
  let executable: URL
  let helper: Agent
  var suites: [String: Suite] = [:]
  var step = 0
  var operation = Operation.write
  var counts = Counts()
  /// The options a replay needs besides the seed and the steps (`--only …`).
  var replayOptions = ""
  /// Whether each step's operation and duration is printed (`--verbose`).
  var isVerbose = false
  /// Violations printed in full at one step; the rest are counted, and said at the step's end.
  let printedViolationsPerStep = 12
  var violationsThisStep = 0

  /// What a run did, for the summary line.
  struct Counts {
    var steps = 0, processes = 0, kills = 0, injectedFailures = 0, refusedWrites = 0
    var foreignWrites = 0, violations = 0, acknowledged = 0
    /// Acknowledged writes of a process that writes and exits, spliced into the file's bytes.
    var spliced = 0
    /// Processes that opened a suite while python rewrote it in place under the suite's lock.
    var firstReads = 0
    var operations: [Operation: Int] = [:]
  }

  /// Prepares the suites (each with 300 filler keys, written by python), the python helper
  /// and one observer per suite.
  ///
  /// - Throws: When the helper cannot start or a suite cannot be made.
  init(seed: UInt64, workspace: Workspace, executable: URL, resources: URL) throws {
    self.seed = seed
    random = SeededGenerator(seed: seed)
    self.workspace = workspace
    self.executable = executable
    helper = try Agent(
      name: "python3 helper", executable: URL(fileURLWithPath: "/usr/bin/env"),
      arguments: ["python3", "-u", resources.appendingPathComponent("plist_helper.py").path])
    counts.processes += 1
    var made = [
      Suite(
        name: "bin", path: workspace.binaryFolder.appendingPathComponent("bin.plist").path,
        format: "binary"),
      Suite(
        name: "xml", path: workspace.xmlFolder.appendingPathComponent("xml.plist").path,
        format: "xml"),
    ]
    if let full = workspace.fullFolder {
      made.append(
        Suite(name: "full", path: full.appendingPathComponent("full.plist").path, format: "xml"))
    }
    for suite in made {
      suites[suite.name] = suite
      let answer = helperRequest(["init", suite.path, suite.format, "300"])
      guard answer.first == "done", let values = readFile(suite) else {
        throw Failure(description: "could not make the \(suite.name) suite: \(answer)")
      }
      suite.model.settle(values)
      suite.lastValues = values
      suite.knownKeys = Set(values.keys)
      startObserver(suite)
      suite.observerValues = values
    }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  // MARK: Processes

  /// Sends one command to the python helper and returns its answer lines (`read` answers
  /// `ok N` and N lines).
  func helperRequest(_ fields: [String], within deadline: Duration = .seconds(120)) -> [String] {
    helperAnswer(helperSend(fields), within: deadline)
  }

  private var nextHelperRequest = 0
  /// The helper's output line count when each unanswered request was sent.
  private var helperStarts: [Int: Int] = [:]

  /// Sends one command to the python helper without waiting; returns its number (the helper
  /// starts its answer with it, so an answer that comes late is never taken for another's).
  func helperSend(_ fields: [String]) -> Int {
    nextHelperRequest += 1
    helperStarts[nextHelperRequest] = helper.lineCount
    helper.send((["\(nextHelperRequest)"] + fields).joined(separator: "\t"))
    return nextHelperRequest
  }

  /// Waits until the python helper says command `request`, still running, got as far as `word`
  /// (its line `NUMBER~ WORD`).
  ///
  /// - Returns: Whether it said so in time.
  @discardableResult
  func helperProgress(_ request: Int, _ word: String, within deadline: Duration = .seconds(30))
    -> Bool
  {
    helper.waitForLine(from: helperStarts[request] ?? 0, within: deadline) {
      $0 == "\(request)~ \(word)"
    } != nil
  }

  /// The answer lines to the helper's command `request` (its number left out).
  func helperAnswer(_ request: Int, within deadline: Duration = .seconds(120)) -> [String] {
    let prefix = "\(request) "
    let start = helperStarts.removeValue(forKey: request) ?? 0
    guard
      let (index, first) = helper.waitForLine(
        from: start, within: deadline, where: { $0.hasPrefix(prefix) })
    else { return ["error the python3 helper did not answer in time (\(helper.errorTail))"] }
    let answer = String(first.dropFirst(prefix.count))
    var lines = [answer]
    if answer.hasPrefix("ok "), let count = Int(answer.dropFirst(3)) {
      guard pollBlocking(within: deadline, until: { helper.lineCount >= index + 1 + count }) else {
        return ["error the python3 helper's answer was cut short (\(count) lines announced)"]
      }
      lines += helper.lines(from: index + 1).prefix(count)
    }
    // Lines before the oldest request still waiting are read.
    helper.forget(before: helperStarts.values.min() ?? helper.lineCount)
    return lines
  }

  /// The file's values as python's plistlib reads them (key hex → code), or nil when it does not
  /// parse (a violation is reported).
  func readFile(_ suite: Suite) -> [String: String]? {
    let answer = helperRequest(["read", suite.path])
    guard let first = answer.first, first.hasPrefix("ok ") else {
      violation(suite, "python3's plistlib cannot read the file: \(answer.first ?? "no answer")")
      return nil
    }
    var values: [String: String] = [:]
    for line in answer.dropFirst() {
      let fields = line.split(separator: "\t", maxSplits: 1)
      guard fields.count == 2 else { continue }
      values[String(fields[0])] = String(fields[1])
    }
    return values
  }

  func startObserver(_ suite: Suite) {
    suite.observer?.kill()
    suite.observer = try? Agent(
      name: "observer \(suite.name)", executable: executable, arguments: ["observer", suite.path],
      environment: ["STORAGE_TORTURE_ROLE": "observer", "STORAGE_TORTURE_FILE": suite.path])
    counts.processes += 1
    guard let observer = suite.observer,
      observer.waitForLine(from: 0, within: .seconds(30), where: { $0 == "ready" }) != nil
    else {
      violation(suite, "the observer did not start: \(suite.observer?.errorTail ?? "")")
      return
    }
    suite.checkedLines = observer.lineCount
  }

  /// The writer in `slot` of `suite`, started when there is none (slot 2 of the XML suite with
  /// its clock 10 s ahead under faketime).
  func writer(_ suite: Suite, _ slot: Int) -> Agent? {
    if let running = suite.writers[slot], running.ending == nil { return running }
    var environment = [
      "LD_PRELOAD": workspace.writerPreload, "STORAGE_TORTURE_ROLE": "writer",
      "STORAGE_TORTURE_FILE": suite.path,
    ]
    if slot == 2, let faketime = workspace.faketime {
      environment["LD_PRELOAD"] = faketime
      environment["FAKETIME"] = "+10s"
      environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
      environment["NO_FAKE_STAT"] = "1"  // file times as the kernel gives them
    }
    guard
      let agent = try? Agent(
        name: "writer \(suite.name)#\(slot)", executable: executable,
        arguments: ["writer", suite.path], environment: environment),
      agent.waitForLine(from: 0, within: .seconds(30), where: { $0 == "ready" }) != nil
    else {
      violation(suite, "writer \(suite.name)#\(slot) did not start")
      return nil
    }
    counts.processes += 1
    suite.writers[slot] = agent
    if environment["FAKETIME"] != nil {
      workspace.startedUnderFaketime(agent.process.processIdentifier)
    }
    return agent
  }

  /// Kills a writer (a `kill` step, or one retired after a failed write: its pending values die
  /// with it, so the failed write stays one that may or may not have landed).
  func retire(_ suite: Suite, _ slot: Int) {
    guard let writer = suite.writers[slot] else { return }
    writer.kill()
    suite.writers[slot] = nil
    workspace.removeFaketimeFiles(of: writer.process.processIdentifier)
  }

  /// How one command to a writer ended.
  enum Outcome: Equatable {
    case acknowledged
    case failed(String)
    /// The writer died without answering (a violation unless the driver killed it).
    case died(String)
  }

  private var nextCommand = 0

  /// Sends `command` to `writer` and returns the index of its output before it (to wait on).
  func send(_ command: String, to writer: Agent) -> (id: Int, from: Int) {
    nextCommand += 1
    let from = writer.lineCount
    writer.send("\(nextCommand) \(command)")
    return (nextCommand, from)
  }

  /// Waits for the answer to command `id`.
  func answer(
    _ id: Int, from start: Int, of writer: Agent, within deadline: Duration = .seconds(120)
  ) -> Outcome {
    let found = writer.waitForLine(from: start, within: deadline) {
      $0 == "ack \(id)" || $0 == "ack \(id) spliced" || $0.hasPrefix("fail \(id) ")
    }
    guard let (_, line) = found else {
      pollBlocking(within: .seconds(5)) { writer.ending != nil }
      return .died("\(writer.ending ?? "no answer in time"); stderr: \(writer.errorTail)")
    }
    if line.hasSuffix(" spliced") { counts.spliced += 1 }
    return line.hasPrefix("ack")
      ? .acknowledged : .failed(String(line.dropFirst("fail \(id) ".count)))
  }

  /// Sends `command` to the writer in `slot` and waits for the answer; records it in the model
  /// (`changes`: key hex → code, nil removing) and counts. A writer whose write failed is retired;
  /// one that died on its own is a violation.
  @discardableResult
  func perform(
    _ command: String, on suite: Suite, slot: Int, changes: [(String, String?)],
    within deadline: Duration = .seconds(120)
  ) -> Outcome {
    for (key, _) in changes { suite.touch(key) }
    guard let writer = writer(suite, slot) else {
      for (key, code) in changes { suite.model.indeterminate(key, code) }
      return .died("no writer")
    }
    // A third of the writes as a process that writes and exits would (`settings-editor write`).
    let once = command != "sync" && chance(33) ? "file " : ""
    let (id, from) = send(once + command, to: writer)
    let outcome = answer(id, from: from, of: writer, within: deadline)
    record(outcome, of: once + command, on: suite, slot: slot, changes: changes)
    return outcome
  }

  /// Records how a write ended in the model and the counts.
  func record(
    _ outcome: Outcome, of command: String, on suite: Suite, slot: Int, changes: [(String, String?)]
  ) {
    switch outcome {
    case .acknowledged:
      counts.acknowledged += 1
      for (key, code) in changes { suite.model.acknowledged(key, code) }
    case .failed:
      counts.refusedWrites += 1
      for (key, code) in changes { suite.model.indeterminate(key, code) }
      retire(suite, slot)
    case .died(let how):
      for (key, code) in changes { suite.model.indeterminate(key, code) }
      violation(
        suite, "writer \(suite.name)#\(slot) died during `\(String(command.prefix(80)))`: \(how)")
      retire(suite, slot)
    }
  }

  /// Ends every process of the run.
  func finish() {
    for suite in suites.values {
      for slot in Array(suite.writers.keys) { retire(suite, slot) }
      suite.observer?.stop()
    }
    helper.stop()
  }
}

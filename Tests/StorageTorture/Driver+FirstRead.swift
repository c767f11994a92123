import Foundation

/// A process that opens a suite while python rewrites its file in place under the suite's lock
/// (`foreign-in-place-locked`): its first read waits for the lock, so it reads every key as the
/// last check found it, but the keys the step writes.
extension Driver {
  /// Starts a process that opens `suite` and prints what it read (``FirstReaderRole``).
  func startFirstReader(_ suite: Suite) -> Agent? {
    counts.processes += 1
    counts.firstReads += 1
    return try? Agent(
      name: "first reader \(suite.name)", executable: executable,
      arguments: ["first-read", suite.path],
      environment: ["STORAGE_TORTURE_ROLE": "first-read", "STORAGE_TORTURE_FILE": suite.path])
  }

  /// Checks what `reader` read against the file's values at the last check: each key as it was,
  /// but those in `allowed`, which may hold any of the codes given (nil: no value).
  func checkFirstRead(_ reader: Agent, of suite: Suite, allowing allowed: [String: [String?]]) {
    defer { reader.stop() }
    let read = dumpAnswer(of: reader, from: 0)
    if let error = read.error {
      violation(suite, "a process that opened the suite during a locked rewrite: \(error)")
      return
    }
    let keys = Set(read.values.keys).union(suite.lastValues.keys).union(allowed.keys)
    let expected = { (key: String) in allowed[key] ?? [suite.lastValues[key]] }
    let wrong = keys.filter { !expected($0).contains(read.values[$0]) }.sorted()
    guard !wrong.isEmpty else { return }
    let shown = wrong.prefix(3).map {
      "\(SuiteModel.show($0)): read \(SuiteModel.show(code: read.values[$0])), expected "
        + expected($0).map { SuiteModel.show(code: $0) }.joined(separator: " or ")
    }
    violation(
      suite,
      "a process that opened the suite during a locked rewrite in place read \(wrong.count) keys "
        + "wrong (\(shown.joined(separator: "; ")))")
  }
}

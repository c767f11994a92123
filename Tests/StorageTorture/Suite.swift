import Foundation

/// One suite file of a run and everything the driver knows of it: its model, its observer
/// process and what that observer last read and was told, its writer processes, and the keys
/// written in the current step (a change report of any other key is false).
final class Suite {
  /// `bin`, `xml` or `full` (the one on a 1 MiB tmpfs).
  let name: String
  let path: String
  /// `binary` or `xml`.
  let format: String
  var model = SuiteModel([:])
  /// The file's values at the last check that parsed it (what a file that broke is restored to).
  var lastValues: [String: String] = [:]
  var observer: Agent?
  /// What the observer read at the last check (key hex → code).
  var observerValues: [String: String] = [:]
  /// The index of the observer's first output line not yet checked.
  var checkedLines = 0
  /// Our writer processes by slot (slot 2 of the XML suite runs with its clock 10 s ahead).
  var writers: [Int: Agent] = [:]
  /// Keys written (by anyone, acknowledged or not) in this step and the step before: an observer
  /// may be told of a value that existed only between two reads.
  var touched: Set<String> = []
  var touchedBefore: Set<String> = []
  /// Every key the file held or the model named, for the observer's look-ups.
  var knownKeys: Set<String> = []
  /// Whether the file failed a check in this step (later checks of the step are skipped).
  var isBroken = false
  /// The violations reported for this suite (one that stays is not counted again).
  var reported: Set<String> = []

  init(name: String, path: String, format: String) {
    self.name = name
    self.path = path
    self.format = format
  }

  /// The key is written in this step.
  func touch(_ key: String) {
    touched.insert(key)
    knownKeys.insert(key)
  }
}

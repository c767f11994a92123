import Foundation
import ObservableDefaultsCore

/// The schema the migration tests use: version 1 renames `name` to `displayName`, version 2
/// turns `timeout` (whole seconds) into `timeoutMinutes` (a `Double`). Each step first appends
/// "<version> <pid>" to `log` (opened with `O_APPEND`, so lines of several processes never mix);
/// with `blockingAt`, that step then appends "<version> started" and waits until the process is
/// killed (the kill test).
func probeMigrations(log: String, blockingAt blocking: Int? = nil) -> SuiteMigrations {
  @Sendable func record(_ version: Int) {
    appendLine("\(version) \(getpid())", to: log)
    guard version == blocking else { return }
    appendLine("\(version) started", to: log)
    while true { pause() }
  }
  return SuiteMigrations([
    SuiteMigrationStep(to: 1, "rename name to displayName") { suite in
      record(1)
      suite.rename("name", to: "displayName")
    },
    SuiteMigrationStep(to: 2, "timeout in seconds becomes timeoutMinutes") { suite in
      record(2)
      try suite.convert("timeout", from: Int.self) { Double($0) / 60 }
      suite.rename("timeout", to: "timeoutMinutes")
    },
  ])
}

/// Appends `line` and a newline to the file at `path` in one `write` with `O_APPEND`.
func appendLine(_ line: String, to path: String) {
  let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
  guard descriptor >= 0 else { fail("cannot open \(path)") }
  defer { close(descriptor) }
  let bytes = Array((line + "\n").utf8)
  guard write(descriptor, bytes, bytes.count) == bytes.count else { fail("cannot write \(path)") }
}

/// `migrate <file> <log> <go>`: waits until the file `<go>` exists (so that processes started
/// one after the other migrate at the same moment), migrates the suite file and prints the
/// versions of the steps it ran (`ran 1 2`, or `ran` when another process had run them).
/// `migrate-blocking <file> <log>`: migrates, blocking in step 2 until killed.
func runMigrationCommand(_ command: String, _ operands: [String]) {
  let defaults = PropertyListDefaults(fileURL: URL(fileURLWithPath: operands[0]))
  let blocking = command == "migrate-blocking" ? 2 : nil
  if operands.count == 3 {
    while !FileManager.default.fileExists(atPath: operands[2]) { usleep(1_000) }
  }
  do {
    let plan = try defaults.migrate(probeMigrations(log: operands[1], blockingAt: blocking))
    print((["ran"] + plan.steps.map { "\($0.version)" }).joined(separator: " "))
  } catch {
    fail("\(error)")
  }
}

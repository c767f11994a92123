import Foundation
import ObservableDefaults
import Observation
import TestSupport

/// A suite file in a fresh temporary folder, removed with its folder when the test ends.
final class TemporarySuite {
  let temporary: TemporaryFolder
  let fileURL: URL

  /// The suite's folder.
  var folder: URL { temporary.url }

  init() {
    // Only an unusable temporary folder fails here, and then no test of this target can run.
    temporary = try! TemporaryFolder()
    fileURL = temporary.file("com.example.tests.plist")
  }

  /// Writes what the test's stores still hold back (they share one storage per file), so that no
  /// flush recreates the folder after it is removed.
  deinit {
    _ = store().synchronize()
    temporary.remove()
  }

  /// A new store instance on the file.
  func store() -> PropertyListDefaults { PropertyListDefaults(fileURL: fileURL) }

  /// The file's values as another program would read them.
  func fileValues() throws -> [String: Any] {
    try PropertyListFile(url: fileURL).read()?.values.stringKeyed ?? [:]
  }
}

/// Counts the Observation change notifications of one property, re-arming after each one.
final class ChangeCounter<Object: AnyObject, Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var changes = 0
  private let read: () -> Value

  init(_ object: Object, _ keyPath: KeyPath<Object, Value>) {
    read = { object[keyPath: keyPath] }
    arm()
  }

  private func arm() {
    withObservationTracking {
      _ = read()
    } onChange: { [self] in
      lock.withLock { changes += 1 }
      arm()
    }
  }

  /// How many changes were announced so far.
  var count: Int { lock.withLock { changes } }
}

/// Runs the `defaults-probe` program (built beside the tests) as another process and waits for it.
/// - Returns: Its exit status.
func runProbe(_ arguments: String...) throws -> Int32 {
  try probeOutput(arguments).status
}

/// Runs `defaults-probe` (or another program built beside the tests) with extra environment
/// variables; returns its status and standard output.
func probeOutput(
  _ arguments: [String], environment: [String: String] = [:], program: String = "defaults-probe"
) throws -> (status: Int32, output: String) {
  let result = try ChildProcess.run(
    ChildProcess.builtProgram(program), arguments, environment: environment)
  return (result.status, result.output)
}

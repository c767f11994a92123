import Foundation
import ObservableDefaults
import Observation

/// A suite file in a fresh temporary folder, removed with its folder when the test ends.
final class TemporarySuite {
  let folder: URL
  let fileURL: URL

  init() {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("od-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    fileURL = folder.appendingPathComponent("com.example.tests.plist")
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  /// A new store instance on the file.
  func store() -> PropertyListDefaults { PropertyListDefaults(fileURL: fileURL) }

  /// The file's values as another program would read them.
  func fileValues() throws -> [String: Any] { try PropertyListFile(url: fileURL).read()?.values ?? [:] }
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
    withObservationTracking { _ = read() } onChange: { [self] in
      lock.withLock { changes += 1 }
      arm()
    }
  }

  /// How many changes were announced so far.
  var count: Int { lock.withLock { changes } }
}

/// Waits up to `seconds` for `condition`, checking every 10 ms; returns whether it held.
func eventually(within seconds: Double = 1, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if condition() { return true }
    Thread.sleep(forTimeInterval: 0.01)
  }
  return condition()
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
  let process = Process()
  let output = Pipe()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent(program)
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

import Foundation
import ObservableDefaultsTesting
import Synchronization

/// What the test process undoes when it exits: Swift Testing has no teardown for a whole
/// process, so the fixtures its tests share (a folder made on first use, a loopback cluster) are
/// registered here and one `atexit` hook, installed by the first registration, runs the actions
/// in the reverse order of their registration (as `atexit` itself does).
///
/// A process ended by a signal runs no hook: `scripts/test` removes the whole temporary folder
/// of a run afterwards.
public enum ProcessExit {
  private static let actions = Mutex<[@Sendable () -> Void]>([])

  /// Runs `action` when the process exits.
  public static func run(_ action: @escaping @Sendable () -> Void) {
    let isFirst = actions.withLock {
      $0.append(action)
      return $0.count == 1
    }
    if isFirst { atexit { ProcessExit.runAll() } }
  }

  /// A new folder `<temporary folder>/<prefix>-<process id>-<UUID>` for the whole process
  /// (shared by its tests), removed when the process exits. A folder that cannot be made fails
  /// the tests that write into it, with errors naming it.
  public static func temporaryFolder(prefix: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)",
      isDirectory: true)
    let folder = try? TemporaryFolder(at: url)
    run { folder?.remove() }
    return url
  }

  private static func runAll() {
    let all = actions.withLock { actions in
      defer { actions.removeAll() }
      return actions
    }
    for action in all.reversed() { action() }
  }
}

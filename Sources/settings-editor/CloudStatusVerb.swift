import Foundation
import ObservableDefaults
import ObservableDefaultsCore

/// `settings-editor cloud status [container]`: the sync status of a program's cloud container,
/// for scripts.
enum CloudStatusVerb {
  /// Connects a device of `container` (nil: this program's) on the backend the configuration
  /// names, and reports its status and the program's journal.
  ///
  /// - Returns: The report and the exit status: 0 connected, 69 (`EX_UNAVAILABLE`) offline or
  ///   connecting, 77 (`EX_NOPERM`) refused.
  static func run(container: String?) -> (report: String, status: Int32) {
    let backend = CloudDefaultBackend.configured(
      container: container ?? CloudContainerDirectory.defaultContainer)
    let status = NSUbiquitousKeyValueStore(backend: backend).syncStatus
    let journal = (backend as? any CloudJournaledBackend)?.journalLocation
    let exitStatus: Int32 =
      switch status.connection {
      case .connected: 0
      case .offline, .connecting: 69
      case .refused: 77
      }
    return (report(status, journal: journal), exitStatus)
  }

  /// One `name: value` line per field of `status` (`journal` for a backend with one, `error`
  /// only when there is one).
  static func report(
    _ status: CloudSyncStatus, journal: (url: URL, isHeldElsewhere: Bool)? = nil
  ) -> String {
    var lines = [
      "backend: \(status.backend)", "endpoint: \(status.endpoint ?? "-")",
      "account: \(status.account)",
      "state: \(status.connection.rawValue)", "pending: \(status.pendingCount)",
      "last sync: \(status.lastSync.map { $0.formatted(.iso8601) } ?? "never")",
    ]
    if let journal { lines.append("journal: \(describe(journal))") }
    if let error = status.lastError { lines.append("error: \(error)") }
    return lines.joined(separator: "\n")
  }

  /// `<path> (held by a running program: 2 pending)`, `<path> (0 pending)`, or why the file
  /// cannot be read.
  private static func describe(_ journal: (url: URL, isHeldElsewhere: Bool)) -> String {
    let path = journal.url.path
    guard FileManager.default.fileExists(atPath: path) else { return "\(path) (none yet)" }
    do {
      let pending = try CloudDeviceJournal.pendingCount(at: journal.url)
      return journal.isHeldElsewhere
        ? "\(path) (held by a running program: \(pending) pending)"
        : "\(path) (\(pending) pending)"
    } catch {
      return "\(path) (unreadable: \(error))"
    }
  }
}

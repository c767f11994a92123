import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import ObservableDefaultsEtcd
import ObservableDefaultsNATS

/// `settings-editor cloud status [container]`: the sync status of a program's cloud container,
/// for scripts.
enum CloudStatusVerb {
  /// Connects a device of `container` (nil: this program's) on the backend the configuration
  /// names, and reports its status and the program's journal.
  ///
  /// - Returns: The report and the exit status: 0 connected, 69 (`EX_UNAVAILABLE`) offline or
  ///   connecting, 77 (`EX_NOPERM`) refused, 78 (`EX_CONFIG`) a configuration the engine cannot
  ///   use (the shared store of a program would fall back to its embedded container).
  static func run(container: String?) -> (report: String, status: Int32) {
    let name = container ?? CloudContainerDirectory.defaultContainer
    let backend: any CloudBackend
    do {
      backend =
        try CloudDefaultBackend.engineBackend(container: name)
        ?? EmbeddedCloudBackend(container: name)
    } catch {
      return unusable(error)
    }
    let status = NSUbiquitousKeyValueStore(backend: backend).syncStatus
    let journal = (backend as? any CloudJournaledBackend)?.journalLocation
    let exitStatus: Int32 =
      switch status.connection {
      case .connected: 0
      case .offline, .connecting: 69
      case .refused: 77
      case .unusable: 78
      }
    return (report(status, journal: journal), exitStatus)
  }

  /// The report of an engine that cannot be used: refused (its servers refused the credentials
  /// when the device connected) or unusable (its configuration).
  private static func unusable(_ failure: CloudEngineFailure) -> (report: String, status: Int32) {
    let refused =
      (failure.error as? NATSError).map { $0.kind == .permissionDenied }
      ?? (failure.error as? EtcdError).map {
        $0.kind == .permissionDenied || $0.kind == .authenticationFailed
      } ?? false
    let lines = [
      "backend: \(failure.engine.lowercased())",
      "state: \(refused ? "refused" : "unusable configuration")",
      "error: \(failure.error)",
    ]
    return (lines.joined(separator: "\n"), refused ? 77 : 78)
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

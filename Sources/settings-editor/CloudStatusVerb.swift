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
  /// - Returns: The report and the exit status: 0 synced or connected, 69 (`EX_UNAVAILABLE`)
  ///   offline or connecting, 77 (`EX_NOPERM`) refused, 78 (`EX_CONFIG`) a configuration the
  ///   engine cannot use (the shared store of a program would fall back to its embedded
  ///   container, and say so in its state). A fallback is never reported as connected: the
  ///   verb reports the configured engine itself.
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
    let store = NSUbiquitousKeyValueStore(backend: backend)
    store.waitForFirstLoad()
    let status = store.syncStatus
    let journal = (backend as? any CloudJournaledBackend)?.journalLocation
    return (report(status, journal: journal), exitStatus(status))
  }

  /// 0 synced or connected, 69 offline or connecting, 77 refused, 78 unusable configuration.
  static func exitStatus(_ status: CloudSyncStatus) -> Int32 {
    switch status.connection {
    case .connected: 0
    case .offline, .connecting: 69
    case .refused: 77
    case .unusable: 78
    }
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
  ///
  /// `pending` has one source: the journal a running program holds, when one does (its writes
  /// are the ones waiting; this device holds none of them), else this device's count.
  static func report(
    _ status: CloudSyncStatus, journal: (url: URL, isHeldElsewhere: Bool)? = nil
  ) -> String {
    var status = status
    var journalLine: String?
    if let journal {
      let (line, heldPending) = describe(journal)
      journalLine = line
      if let heldPending { status.pendingCount = heldPending }
    }
    var lines = [
      "backend: \(status.backend)", "endpoint: \(status.endpoint ?? "-")",
      "account: \(status.account)", "state: \(status.state)", "pending: \(status.pendingCount)",
      "last sync: \(status.lastSync.map { $0.formatted(.iso8601) } ?? "never")",
    ]
    if let journalLine { lines.append("journal: \(journalLine)") }
    if let error = status.lastError { lines.append("error: \(error)") }
    return lines.joined(separator: "\n")
  }

  /// `<path> (held by a running program)` with the pending writes it holds, `<path>`, or why
  /// the file cannot be read.
  private static func describe(_ journal: (url: URL, isHeldElsewhere: Bool)) -> (
    line: String, heldPending: Int?
  ) {
    let path = journal.url.path
    guard FileManager.default.fileExists(atPath: path) else { return ("\(path) (none yet)", nil) }
    guard journal.isHeldElsewhere else { return (path, nil) }
    do {
      let pending = try CloudDeviceJournal.pendingCount(at: journal.url)
      return ("\(path) (held by a running program)", pending)
    } catch {
      return ("\(path) (held by a running program; unreadable: \(error))", nil)
    }
  }
}

import Foundation
import ObservableDefaults

/// `settings-editor cloud status`: the sync status of this program's cloud store, for scripts.
enum CloudStatusVerb {
  /// One `name: value` line per field of `status` (`error` only when there is one).
  static func report(_ status: CloudSyncStatus) -> String {
    var lines = [
      "backend: \(status.backend)", "endpoint: \(status.endpoint ?? "-")",
      "account: \(status.account)",
      "state: \(status.connection.rawValue)", "pending: \(status.pendingCount)",
      "last sync: \(status.lastSync.map { $0.formatted(.iso8601) } ?? "never")",
    ]
    if let error = status.lastError { lines.append("error: \(error)") }
    return lines.joined(separator: "\n")
  }
}

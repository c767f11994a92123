import Foundation

/// The line a device whose writes could not be sent leaves on ``Diagnostics`` when the program
/// exits (or drops its store), so that nobody takes an exit for a sync.
enum CloudUnsentWrites {
  /// Reports `unsent` writes the last save could not hand over plus those `backend` still
  /// holds, at exit or (`atExit` false) when the program drops the store: `exiting with 2
  /// cloud writes not sent to etcd (offline): kept in the journal <file> for the next launch`
  /// (the embedded container's `pending.plist` likewise), or `…: lost` when nothing keeps
  /// them: no journal, a journal another process holds (this device's lives in memory), or a
  /// journal file that is not there (its folder was removed, and is not made again). Reports
  /// nothing when nothing is unsent.
  static func report(_ unsent: Int, on backend: any CloudBackend, atExit: Bool) {
    let status = backend.syncStatus
    let count = unsent + status.pendingCount
    guard count > 0 else { return }
    let writes = count == 1 ? "1 cloud write" : "\(count) cloud writes"
    let fate =
      if let journal = (backend as? any CloudJournaledBackend)?.journalLocation,
        !journal.isHeldElsewhere, FileManager.default.fileExists(atPath: journal.url.path)
      {
        "kept in the journal \(journal.url.path) for the next launch"
      } else if let kept = (backend as? EmbeddedCloudBackend)?.keptWritesFile {
        "kept in \(kept.path) for the next launch"
      } else {
        "lost"
      }
    Diagnostics.report(
      "NSUbiquitousKeyValueStore",
      "\(atExit ? "exiting" : "closing the store") with \(writes) not sent to \(status.backend) (\(status.state)): \(fate)"
    )
  }
}

package import Foundation

/// A backend whose device keeps a ``CloudDeviceJournal`` (etcd, NATS), so that a tool can report
/// the journal of a program's device — held by the program while it runs.
package protocol CloudJournaledBackend: CloudBackend {
  /// The current account's journal file and whether another live process holds it, or nil for
  /// a journal in memory only.
  var journalLocation: (url: URL, isHeldElsewhere: Bool)? { get }
}

extension CloudDeviceJournal {
  /// ``location`` and ``isHeldElsewhere``, for ``CloudJournaledBackend/journalLocation``.
  package var whereKept: (url: URL, isHeldElsewhere: Bool)? {
    location.map { ($0, isHeldElsewhere) }
  }
}

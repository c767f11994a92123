package import Foundation

/// A sync engine's backend (etcd, NATS), whose device keeps a ``CloudDeviceJournal`` (see
/// ``CloudEngineDevice``): what the engines do alike with it. An engine brings its client, its
/// key layout and what its exchanges prove.
package protocol CloudEngineBackend: CloudJournaledBackend, CloudLocalFirstBackend {
  /// The resume point of a device that never read its servers: resuming from it delivers
  /// everything.
  static var noCursor: CloudCursor { get }

  /// Runs `body` with the device's journal, under the backend's lock.
  func withJournal<Value: Sendable>(_ body: (CloudDeviceJournal) -> Value) -> Value
}

extension CloudEngineBackend {
  /// The current account's journal file and whether another live process holds it.
  package var journalLocation: (url: URL, isHeldElsewhere: Bool)? {
    withJournal { $0.whereKept }
  }

  /// The journal's records (the last ones read, with this device's pending writes over them)
  /// and its resume point, without the network.
  package func localBatch() -> CloudRecordBatch {
    withJournal { $0.localBatch(none: Self.noCursor) }
  }

  /// Signs the device into `account` on `queue` (its queue of deliveries, so that no delivery
  /// of the old account follows): opens the account's journal under `directory`, reads the
  /// account into it with `read` (from the servers, or the journal's copy without them), lets
  /// `install` make it the device's (under the backend's lock, restarting the watches), and
  /// hands every subscriber `install` returns the account's records.
  ///
  /// - Throws: `PropertyListError` for an unreadable journal file, or what `read` throws; the
  ///   device keeps its account then.
  package func signIn(
    to account: String, on queue: CloudDeviceQueue, directory: URL?, container: String,
    read: (inout CloudDeviceJournal) throws -> CloudRecordBatch,
    install: (CloudDeviceJournal, CloudRecordBatch) -> [@Sendable (CloudBackendEvent) -> Void]
  ) throws {
    try queue.sync {
      var journal = try CloudDeviceJournal(
        directory: directory, container: container, account: account)
      let batch: CloudRecordBatch
      do {
        batch = try read(&journal)
      } catch {
        journal.releaseFile()
        throw error
      }
      for handler in install(journal, batch) { handler(.accountChanged(account: account, batch)) }
    }
  }
}

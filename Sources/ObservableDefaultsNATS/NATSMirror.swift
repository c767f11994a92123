import Foundation
import ObservableDefaultsCore

/// A device's copy of one bucket, kept current by a watch from the first revision: what loads
/// return and saves merge on, without asking the servers for every key each time.
///
/// A load or a save first asks the stream's leader for the bucket's last revision, then waits
/// until the copy has received everything through it, so it answers with at least what every
/// device had written when it was asked (as a read from the servers would). The copy can only
/// be behind the servers, never wrong: a save's write is conditional on the bucket's last
/// revision, so it is refused when another device wrote since, and the save then waits for the
/// copy to catch up (see ``NATSSave``).
final class NATSMirror: @unchecked Sendable {
  private let bucket: NATSBucket
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var entries: [String: NATSBucket.Entry] = [:]
  private var revision: UInt64 = 0
  private var watch: NATSWatch?

  /// Starts copying `bucket`.
  init(_ bucket: NATSBucket, on connection: NATSConnection) {
    self.bucket = bucket
    let watch = NATSWatch(
      on: connection, open: { bucket }, after: nil,
      deliver: { [weak self] change in self?.absorb(change) })
    condition.withLock { self.watch = watch }
  }

  deinit {
    watch?.cancel()
  }

  /// Every key's latest entry and the revision through which the copy is complete, once it has
  /// everything the bucket held when this was called.
  ///
  /// - Throws: ``NATSError`` when the servers do not answer, or the copy does not catch up within
  ///   the request timeout (`.unreachable`).
  func contents(within timeout: TimeInterval) throws(NATSError) -> (
    entries: [String: NATSBucket.Entry], revision: UInt64
  ) {
    let target = try bucket.lastRevision()
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while revision < target {
      guard condition.wait(until: deadline) else {
        throw NATSError(
          kind: .unreachable,
          message:
            "reading the bucket \(bucket.layout.bucket): revision \(revision) of \(target) after \(timeout) s"
        )
      }
    }
    return (entries, revision)
  }

  /// Takes entries the device just wrote or read from the leader (later revisions win). A write
  /// whose revision follows the one through which the copy is complete extends it (nothing can
  /// be missing in between), so a device's own writes never wait for its watch.
  func absorb(_ written: [String: NATSBucket.Entry]) {
    condition.withLock {
      for (key, entry) in written where entry.revision > entries[key]?.revision ?? 0 {
        entries[key] = entry
      }
      for next in written.values.map(\.revision).sorted() where next == revision + 1 {
        revision = next
      }
      condition.broadcast()
    }
  }

  private func absorb(_ change: NATSWatch.Change) {
    condition.withLock {
      for (key, keyRevision) in change.revisions where keyRevision > entries[key]?.revision ?? 0 {
        entries[key] = NATSBucket.Entry(
          record: change.records[key], revision: keyRevision, refusal: change.refused[key])
      }
      revision = max(revision, change.cursor.revision)
      condition.broadcast()
    }
  }
}

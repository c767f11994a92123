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
///
/// The copy takes what its watch receives whenever the watch has nothing pending, without
/// waiting for the rest of another device's save: a CI run on a loaded machine saw a load wait
/// 5 s for two 600-key saves ("revision 0 of 90"). It counts the keys of the saves in progress,
/// so that a save refused by another device's save can wait for that save's end instead of
/// being refused again by each of its keys.
final class NATSMirror: @unchecked Sendable {
  private let bucket: NATSBucket
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var entries: [PropertyListKey: NATSBucket.Entry] = [:]
  private var revision: UInt64 = 0
  private(set) var watch: NATSWatch?
  /// Save id → keys still to come and when its first key came, for saves not yet complete.
  private var savesInProgress: [String: (missing: Int, since: Date)] = [:]
  /// How long a save waits at most for another device's save in progress (5 s): shorter than
  /// the watch's ``NATSWatch/incompleteSaveDelay``, since here a writer waits, and a save a
  /// conflict cut short never completes.
  static let incompleteSaveWait: TimeInterval = 5

  /// Starts copying `bucket`.
  init(_ bucket: NATSBucket, on connection: NATSConnection) {
    self.bucket = bucket
    let watch = NATSWatch(
      on: connection, open: { bucket }, after: nil, wholeSaves: false,
      deliver: { [weak self] change in self?.absorb(change) })
    condition.withLock { self.watch = watch }
  }

  deinit {
    // The last reference may go inside the watch's own delivery (the copy outlived its device
    // only for that call), which holds the watch's lock: cancel it from another thread.
    let watch = self.watch
    DispatchQueue.global().async { watch?.cancel() }
  }

  /// Every key's latest entry and the revision through which the copy is complete, once it has
  /// everything the bucket held when this was called, and, with `awaitingSavesOtherThan`, once
  /// no other save is in progress: each is complete or has waited
  /// ``incompleteSaveWait`` since its first key (a conflict cut it short), or
  /// `timeout` is over.
  ///
  /// - Throws: ``NATSError`` when the servers do not answer, or the copy does not catch up within
  ///   `timeout` seconds (`.unreachable`).
  func contents(
    within timeout: TimeInterval, awaitingSavesOtherThan ownSaves: Set<String>? = nil
  ) throws(NATSError) -> (entries: [PropertyListKey: NATSBucket.Entry], revision: UInt64) {
    let target = try bucket.lastRevision()
    let deadline = Date().addingTimeInterval(timeout)
    while !waitForCopy(through: target, until: min(deadline, Date() + 1)) {
      guard Date() < deadline else {
        let revision = condition.withLock { self.revision }
        throw NATSError(
          kind: .unreachable,
          message:
            "reading the bucket \(bucket.layout.bucket): revision \(revision) of \(target) after \(timeout) s"
        )
      }
      // Told each second, outside the lock its deliveries take: a watch that stays silent
      // for its stall limit subscribes again.
      expect(target)
    }
    condition.lock()
    defer { condition.unlock() }
    if let ownSaves {
      while let end = endOfSaves(otherThan: ownSaves), condition.wait(until: min(deadline, end)) {}
    }
    return (entries, revision)
  }

  /// Takes note that the bucket's leader reported `revision` as its last (see
  /// ``NATSWatch/expect(_:)``).
  func expect(_ revision: UInt64) {
    condition.withLock { watch }?.expect(revision)
  }

  /// Waits until the copy is complete through `target` or `end` comes; returns whether it is.
  private func waitForCopy(through target: UInt64, until end: Date) -> Bool {
    condition.withLock {
      while revision < target, condition.wait(until: end) {}
      return revision >= target
    }
  }

  /// When the last save in progress but `own` stops being waited for; `nil` when none is.
  /// Called with `condition` locked.
  private func endOfSaves(otherThan own: Set<String>) -> Date? {
    let now = Date()
    return savesInProgress.filter { !own.contains($0.key) }.values
      .map { $0.since + Self.incompleteSaveWait }.filter { $0 > now }.max()
  }

  /// Takes entries the device just wrote or read from the leader (later revisions win). A write
  /// whose revision follows the one through which the copy is complete extends it (nothing can
  /// be missing in between), so a device's own writes never wait for its watch.
  func absorb(_ written: [PropertyListKey: NATSBucket.Entry]) {
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
      let now = Date()
      savesInProgress = savesInProgress.filter {
        now < $0.value.since + Self.incompleteSaveWait
      }
      for (id, save) in change.saves {
        let missing = (savesInProgress[id]?.missing ?? save.announced) - save.received
        savesInProgress[id] = missing > 0 ? (missing, savesInProgress[id]?.since ?? now) : nil
      }
      condition.broadcast()
    }
  }
}

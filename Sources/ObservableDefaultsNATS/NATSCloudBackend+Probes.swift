import Foundation
import ObservableDefaultsCore

/// The device's probes (an exchange every ``NATSCloudBackend/probeInterval`` and at each
/// (re)connection, when there is something to prove or to push) and what it does with a bucket
/// deleted and made again.
extension NATSCloudBackend {
  /// Probes every ``probeInterval`` while the device lives.
  func scheduleProbe() {
    probes.asyncAfter(deadline: .now() + Self.probeInterval) { [weak self] in
      guard let self else { return }
      probe()
      scheduleProbe()
    }
  }

  /// Queues a probe now, unless one is queued.
  func probeSoon() {
    let mustQueue = state.withLock { state in
      defer { state.probeQueued = true }
      return !state.probeQueued
    }
    guard mustQueue else { return }
    probes.async { [weak self] in
      guard let self else { return }
      state.withLock { $0.probeQueued = false }
      probe()
    }
  }

  /// One exchange that proves the device's state, when there is something to prove: pushes
  /// the journal's pending writes (also those of an earlier run, or of a bucket made again);
  /// otherwise, once the device has exchanged anything, reads its bucket's
  /// last revision — which notices a bucket deleted (and maybe made again), so that the device
  /// writes its records to it again, and a watch that stopped receiving.
  private func probe() {
    let target = layout(currentAccountName)
    do {
      try onBucketGone(target) {
        // Any pending write is pushed, not only those the store does not push itself: a read
        // a server without quorum still answers must not stand for the writes it cannot commit
        // (under load, such reads made the device `connected, 3 pending` with no error).
        let (mustPush, mustRead) = state.withLock {
          (!$0.device.journal.pending.isEmpty, $0.device.exchange.outcome != .none)
        }
        if mustPush {
          try pushPending()
        } else if mustRead {
          let (last, mirror) = try exchange {
            let open = try bucket(for: target)
            return (try open.bucket.lastRevision(), open.mirror)
          }
          // A watch that stays silent behind the bucket subscribes again (see NATSWatch).
          mirror.expect(last)
          for watch in state.withLock({ $0.device.watches }) { watch.expect(last) }
        }
      }
    } catch {
      // Noted in the state; the next probe or save tries again.
    }
  }

  /// Runs `body`, an exchange with `layout`'s bucket; when the bucket turns out to be deleted
  /// (``NATSError/Kind/notFound``: its stream is gone, or was made again since the device
  /// opened it), takes note (``bucketGone(_:)``) and runs `body` once more, on the bucket as it
  /// is now (made again by the device when it is still missing, as at its first use).
  func onBucketGone<T>(_ layout: NATSKeyLayout, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as NATSError where error.kind == .notFound {
      bucketGone(layout)
      return try body()
    }
  }

  /// Forgets `layout`'s open bucket, which was deleted. When it is the current account's, every
  /// record of the journal becomes pending again, each with its timestamp (so that on the
  /// bucket made again the later write of each key wins, whichever device writes first), and
  /// the watches start again from the new bucket's first revision.
  private func bucketGone(_ layout: NATSKeyLayout) {
    // The deleted bucket and its copy are returned, so released outside the lock.
    _ = state.withLock { state in
      let gone = state.buckets.removeValue(forKey: layout)
      guard layout == self.layout(state.device.account) else { return gone }
      state.device.journal.add(pending: state.device.journal.records)
      state.device.journal.cursor = nil
      state.device.persistJournal()
      restartWatches(&state) { _ in nil }
      return gone
    }
  }

  /// Whether `read` names a bucket other than the one `seen` was read from (a bucket deleted and
  /// made again: another stream creation time), `seen` being a real read's cursor.
  static func isAnotherBucket(_ read: CloudCursor, than seen: CloudCursor?) -> Bool {
    guard let seen = NATSCursor(seen), seen.identity != 0, let read = NATSCursor(read) else {
      return false
    }
    return read.identity != seen.identity
  }
}

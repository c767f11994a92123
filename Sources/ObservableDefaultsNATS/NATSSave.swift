import CNATS
import Foundation
import ObservableDefaultsCore

/// One save to a bucket, merged on the server's state as the containers on this machine merge
/// (``CloudContainerContents``): per key the record with the later timestamp is kept, and the
/// account's ``CloudQuota`` holds across devices.
///
/// 1. The device's copy of the bucket (``NATSMirror``) is brought up to the bucket's last
///    revision `R`: each key's record.
/// 2. The records are merged into it: a record no later than the stored one is skipped; one that
///    would take the container past the quota is refused.
/// 3. The records taken are written one after the other, each only if the bucket's last revision
///    is still the one before it (JetStream's expected last sequence: `R` for the first, then
///    the revision of the previous write), so each lands only if no device wrote anything since
///    the merge decided it — the timestamps and the quota were decided on exactly what is
///    stored. When another device wrote meanwhile, the copy catches up, waits for the end of
///    the other devices' saves in progress (so that a long save is not refused again by each of
///    its keys; two devices saving 600 keys each at once gave up after 8 rounds without it), and
///    the rest is merged again, at most ``maximumAttempts`` times: a slower writer never
///    overwrites a later write, and the later timestamp wins on every server.
/// 4. A write the server refuses because the bucket is full (``NATSBucketLimits``) is a refused
///    key, as for the quota.
///
/// Why the bucket's last revision and not the key's (`Nats-Expected-Last-Subject-Sequence`, what
/// libnats' `kvStore_Update` sends): on a clustered stream nats-server checks the key's revision
/// before the write is replicated, not in order with writes in flight, so two devices writing
/// the same key with the same expected revision can both succeed (nats-server issue 4320; here
/// 111 of 300 concurrent pairs on 2.9.10 with 3 replicas), and the slower one then overwrites
/// the later write. The expected last sequence of the stream is checked in order with the writes
/// in flight (0 of 300 pairs). Writes of one person's devices rarely meet, so the wider condition
/// costs little.
///
/// Each message carries the header ``header``, `<save id> <keys written>`, so that a watch
/// delivers a save's keys as one change (see ``NATSWatch``).
enum NATSSave {
  /// The header naming a message's save and how many keys the save writes.
  static let header = "Observable-Defaults-Save"

  /// Read-merge-write rounds before a save contended by other devices gives up.
  static let maximumAttempts = 8

  /// Saves `records` (store key → record) to `bucket`, merging on `mirror` (its copy).
  ///
  /// - Returns: The keys refused because the container's quota or the bucket's limits would be
  ///   exceeded (the other records are saved), sorted.
  /// - Throws: ``NATSError`` (nothing more is written then), also `.refused(code: 10071)` when
  ///   other devices kept writing for ``maximumAttempts`` rounds; ``CloudRecordError`` when a
  ///   record cannot be encoded.
  static func save(
    _ records: [PropertyListKey: CloudRecord], to bucket: NATSBucket, mirror: NATSMirror,
    within timeout: TimeInterval
  ) throws -> [PropertyListKey] {
    var remaining = records
    var refused: Set<PropertyListKey> = []
    var ownSaves: Set<String>?
    for _ in 0..<maximumAttempts {
      var (stored, last) = try mirror.contents(within: timeout, awaitingSavesOtherThan: ownSaves)
      var contents = CloudContainerContents(
        revision: 0,
        entries: stored.compactMapValues { entry in
          entry.record.map { CloudContainerContents.Entry(record: $0, revision: 0) }
        })
      let changed = contents.merge(remaining)
      refused.formUnion(contents.refusedKeys)
      guard changed else { return refused.sorted() }
      let taken = remaining.filter { key, record in
        contents.entries[key]?.record.timestamp == record.timestamp
          && stored[key]?.record?.timestamp != record.timestamp
      }
      let save = UUID().uuidString
      let id = "\(save) \(taken.count)"
      ownSaves = (ownSaves ?? []).union([save])
      remaining = [:]
      var conflicted = false
      for (key, record) in taken.sorted(by: { $0.key < $1.key }) {
        if conflicted {
          remaining[key] = record
          continue
        }
        let bytes = try CloudRecordCodec.encode(record)
        do throws(NATSBucket.WriteRefusal) {
          last = try bucket.write(bytes, to: key.string, ifLastRevision: last, header: [header: id])
          stored[key] = NATSBucket.Entry(record: record, revision: last)
          mirror.absorb([key: stored[key]!])
        } catch .conflict {
          conflicted = true
          remaining[key] = record
        } catch .full {
          refused.insert(key)
        } catch .failed(let error) {
          throw error
        }
      }
      if remaining.isEmpty { return refused.sorted() }
    }
    throw NATSError(
      kind: .refused(code: Int(JSStreamWrongLastSequenceErr.rawValue)),
      message: "other devices kept writing to \(bucket.layout.bucket)")
  }
}

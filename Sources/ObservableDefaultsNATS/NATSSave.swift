import CNATS
import Foundation
import ObservableDefaultsCore

/// One save to a bucket, merged on the server's state as the containers on this machine merge
/// (``CloudContainerContents``): per key the record with the later timestamp is kept, and the
/// account's ``CloudQuota`` holds.
///
/// 1. The bucket is read whole: each key's record and revision.
/// 2. The records are merged into what was read: a record no later than the stored one is
///    skipped; one that would take the container past the quota is refused.
/// 3. Each record taken is written with compare-and-set on its key's revision (JetStream's
///    expected last subject sequence; "no message yet" for a new key), so it lands only if no
///    device wrote the key since the read. A write that finds another revision reads again and
///    merges again, at most ``maximumAttempts`` times: a slower writer never overwrites a later
///    write, and the later timestamp wins on every server.
/// 4. A write the server refuses because the bucket is full (``NATSBucketLimits``) is a
///    refused key, as for the quota.
///
/// Each message carries the header ``header``, `<save id> <keys written>`, so that a watch
/// delivers a save's keys as one change (see ``NATSWatch``).
enum NATSSave {
  /// The header naming a message's save and how many keys the save writes.
  static let header = "Observable-Defaults-Save"

  /// Read-merge-write rounds before a save contended by other devices gives up.
  static let maximumAttempts = 8

  /// Saves `records` (store key → record) to `bucket`.
  ///
  /// - Returns: The keys refused because the container's quota or the bucket's limits would be
  ///   exceeded (the other records are saved), sorted.
  /// - Throws: ``NATSError`` (nothing more is written then), also `.refused(code: 10071)` when
  ///   other devices kept writing the same keys for ``maximumAttempts`` rounds;
  ///   ``CloudRecordError`` when a record cannot be encoded.
  static func save(_ records: [String: CloudRecord], to bucket: NATSBucket) throws -> [String] {
    var remaining = records
    var refused: Set<String> = []
    for _ in 0..<maximumAttempts {
      let stored = try bucket.readAll().entries
      var contents = CloudContainerContents(
        revision: 0,
        entries: stored.mapValues { CloudContainerContents.Entry(record: $0.record, revision: 0) })
      let changed = contents.merge(remaining)
      refused.formUnion(contents.refusedKeys)
      guard changed else { return refused.sorted() }
      let taken = remaining.filter { key, record in
        contents.entries[key]?.record.timestamp == record.timestamp
          && stored[key]?.record.timestamp != record.timestamp
      }
      let id = "\(UUID().uuidString) \(taken.count)"
      var conflicts: [String: CloudRecord] = [:]
      for (key, record) in taken.sorted(by: { $0.key < $1.key }) {
        let bytes = try CloudRecordCodec.encode(record)
        do throws(NATSBucket.WriteRefusal) {
          _ = try bucket.write(
            bytes, to: key,
            ifRevision: stored[key]?.revision ?? 0, header: [header: id])
        } catch .conflict {
          conflicts[key] = record
        } catch .full {
          refused.insert(key)
        } catch .failed(let error) {
          throw error
        }
      }
      if conflicts.isEmpty { return refused.sorted() }
      remaining = conflicts
    }
    throw NATSError(
      kind: .refused(code: Int(JSStreamWrongLastSequenceErr.rawValue)),
      message: "other devices kept writing the same keys of \(bucket.layout.bucket)")
  }
}

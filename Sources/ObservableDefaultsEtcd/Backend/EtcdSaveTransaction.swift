import Foundation
import ObservableDefaultsCore

/// One save to etcd, merged on the server's state as the containers on this machine merge
/// (``CloudContainerContents``): per key the record with the later timestamp is kept, and the
/// account's `CloudQuota` holds across devices.
///
/// 1. One range reads every record under the account's prefix, at the store's revision `R`.
/// 2. The records are merged into what was read: a record no later than the stored one is
///    skipped; one that would take the container past the quota is refused.
/// 3. The records taken are written in one transaction guarded by one compare over the whole
///    prefix,
///
///        mod_revision(prefix … range end) < R + 1
///
///    so the write lands only when no device changed anything under the prefix since the read:
///    then the merge (timestamps and quota) was decided on exactly what is stored. Otherwise the
///    save reads again and retries (at most ``maximumAttempts`` times).
/// 4. When no record is taken, nothing is written.
///
/// Transactions are flat (etcd 3.4.23 does not check role permissions inside nested
/// transactions). etcd's limits are kept: at most ``maximumOperations`` operations per
/// transaction (`--max-txn-ops`, default 128) and ``maximumBytes`` per request (below
/// `--max-request-bytes`, default 1.5 MiB); a save beyond them is split into several
/// transactions, each guarded by the revision the previous one produced.
enum EtcdSaveTransaction {
  /// One key to save: its etcd key, the new record's header and bytes.
  struct Entry {
    let key: Data
    let header: Data
    let bytes: Data

    /// The request bytes this entry adds, with room for JSON framing.
    var cost: Int { bytes.count + 2 * key.count + header.count + 64 }
  }

  /// etcd's default `--max-txn-ops`.
  static let maximumOperations = 128
  /// The request size one transaction may reach (etcd's default limit is 1.5 MiB).
  static let maximumBytes = 1_000_000
  /// Read-then-write rounds before a save contended by other devices gives up.
  static let maximumAttempts = 8

  /// Saves `records` (store key → record) under `layout` through `client`.
  ///
  /// - Returns: The keys refused because the container's `CloudQuota` would be exceeded (the
  ///   other records are saved), sorted.
  /// - Throws: ``EtcdError``; also `.server` when other devices kept changing the container for
  ///   ``maximumAttempts`` rounds; ``CloudRecordError`` when a record cannot be encoded.
  static func save(
    _ records: [PropertyListKey: CloudRecord], under layout: EtcdKeyLayout, with client: EtcdClient
  ) throws -> [PropertyListKey] {
    for _ in 0..<maximumAttempts {
      let read = try client.range(key: layout.prefixKey, rangeEnd: layout.rangeEnd)
      let stored = EtcdRecordReader.records(read.kvs ?? [], layout: layout).records
      var contents = CloudContainerContents(
        revision: 0,
        entries: stored.mapValues { CloudContainerContents.Entry(record: $0, revision: 0) })
      guard contents.merge(records) else { return contents.refusedKeys }
      let taken = try records.filter { key, record in
        contents.entries[key]?.record.timestamp == record.timestamp
          && stored[key]?.timestamp != record.timestamp
      }.map { key, record in
        Entry(
          key: layout.key(key.string), header: CloudRecordCodec.header(record.timestamp),
          bytes: try CloudRecordCodec.encode(record))
      }
      if try write(taken, under: layout, since: read.header?.revision?.value ?? 0, with: client) {
        return contents.refusedKeys
      }
    }
    throw EtcdError(
      kind: .server(code: 10),
      message: "other devices kept changing the container; the save will be retried")
  }

  /// Writes `entries` in as few transactions as etcd's limits allow, each guarded by "nothing
  /// under the prefix changed since `revision`" (then since the revision the previous one made).
  ///
  /// - Returns: Whether every transaction was written (false: another device wrote meanwhile).
  private static func write(
    _ entries: [Entry], under layout: EtcdKeyLayout, since revision: Int64, with client: EtcdClient
  ) throws -> Bool {
    var since = revision
    for group in groups(entries) {
      let unchanged = EtcdCompare(
        key: layout.prefixKey, rangeEnd: layout.rangeEnd, target: .mod, result: .less,
        modRevision: EtcdInt64(since + 1))
      let reply = try client.txn(
        EtcdTxnRequest(
          compare: [unchanged],
          success: group.map { .put(EtcdPutRequest(key: $0.key, value: $0.bytes)) }))
      guard reply.succeeded == true else { return false }
      since = reply.header?.revision?.value ?? since
    }
    return true
  }

  /// The entries in groups that fit one transaction each.
  static func groups(_ entries: [Entry]) -> [[Entry]] {
    var groups: [[Entry]] = []
    var group: [Entry] = []
    var cost = 0
    for entry in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
      if !group.isEmpty, group.count == maximumOperations || cost + entry.cost > maximumBytes {
        groups.append(group)
        (group, cost) = ([], 0)
      }
      group.append(entry)
      cost += entry.cost
    }
    if !group.isEmpty { groups.append(group) }
    return groups
  }
}

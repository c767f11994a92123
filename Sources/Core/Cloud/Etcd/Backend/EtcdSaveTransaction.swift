import Foundation

/// One save to etcd: per key, the record with the later timestamp is kept, and etcd itself
/// refuses to replace a later record.
///
/// 1. One transaction reads the keys being saved (a `range` per key).
/// 2. The records that are later than what is stored (or whose key is missing) are written in
///    one transaction, each put guarded by a compare:
///
///        value(key) < header(new)     when the key exists (``EtcdRecordCodec`` headers sort as
///                                     timestamps do, and etcd compares values byte by byte)
///        mod_revision(key) == 0       when it does not
///
///    so all keys land in one revision, and a record written meanwhile by another device makes
///    the whole transaction fail instead of being overwritten: the save then reads again and
///    retries (at most ``maximumAttempts`` times).
/// 3. When no record is later, nothing is written.
///
/// Transactions are flat (etcd 3.4.23 does not check role permissions inside nested
/// transactions). etcd's limits are kept: at most ``maximumOperations`` operations per
/// transaction (`--max-txn-ops`, default 128) and ``maximumBytes`` per request (below
/// `--max-request-bytes`, default 1.5 MiB); a save beyond them is split into several
/// transactions (several revisions).
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

  /// Saves `entries` through `client`.
  ///
  /// - Throws: ``EtcdError``; also `.server` when other devices kept changing the keys for
  ///   ``maximumAttempts`` rounds.
  static func save(_ entries: [Entry], with client: EtcdClient) throws {
    for group in groups(entries) {
      var attempt = 0
      while true {
        let stored = try read(group.map(\.key), with: client)
        let later = group.filter { entry in stored[entry.key].map { $0.lexicographicallyPrecedes(entry.header) } ?? true }
        if later.isEmpty { break }
        if try client.txn(write(later, over: stored)).succeeded == true { break }
        attempt += 1
        guard attempt < maximumAttempts else {
          throw EtcdError(kind: .server(code: 10), message: "other devices kept changing the keys; the save will be retried")
        }
      }
    }
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

  /// The stored bytes of `keys` (missing keys are absent), read in one transaction.
  private static func read(_ keys: [Data], with client: EtcdClient) throws -> [Data: Data] {
    let response = try client.txn(EtcdTxnRequest(success: keys.map { .range(EtcdRangeRequest(key: $0)) }))
    var stored: [Data: Data] = [:]
    for kv in (response.responses ?? []).flatMap({ $0.responseRange?.kvs ?? [] }) {
      stored[kv.key] = kv.value ?? Data()
    }
    return stored
  }

  /// The guarded puts of `entries`.
  private static func write(_ entries: [Entry], over stored: [Data: Data]) -> EtcdTxnRequest {
    EtcdTxnRequest(
      compare: entries.map { entry in
        stored[entry.key] == nil
          ? EtcdCompare(key: entry.key, target: .mod, result: .equal, modRevision: EtcdInt64(0))
          : EtcdCompare(key: entry.key, target: .value, result: .less, value: entry.header)
      },
      success: entries.map { .put(EtcdPutRequest(key: $0.key, value: $0.bytes)) })
  }
}

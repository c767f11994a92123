import Foundation

/// The transactions of one save: per key, etcd keeps the record with the greater timestamp,
/// decided on the server.
///
/// For each key the save sends a nested transaction:
///
///     if value(key) < header(new)        then put(key, new)     // stored record is older
///     else if create_revision(key) == 0  then put(key, new)     // no record yet
///
/// (etcd compares values byte by byte, and ``EtcdRecordCodec`` headers sort as timestamps do; a
/// value compare is false for a missing key, hence the second branch.) A stored record with the
/// same or a later timestamp is kept, so a save of nothing newer writes nothing and a retried
/// save is harmless.
///
/// All keys go in one outer transaction — one revision — as long as etcd's limits allow:
/// at most ``maximumOperations`` operations per list (etcd's `--max-txn-ops`, default 128; more
/// keys are nested in groups, up to 128 × 128) and ``maximumBytes`` per request (below etcd's
/// `--max-request-bytes`, default 1.5 MiB). A larger save is split into several transactions;
/// a record too large to be sent twice goes alone, in two single-copy steps.
struct EtcdSaveTransaction {
  /// One key to save: its etcd key, the new record's header and bytes.
  struct Entry {
    let key: Data
    let header: Data
    let bytes: Data

    /// The request bytes this entry adds (its value is sent twice), with room for JSON framing.
    var cost: Int { 2 * bytes.count + 3 * key.count + header.count + 64 }
  }

  /// etcd's default `--max-txn-ops`.
  static let maximumOperations = 128
  /// The request size one transaction may reach (etcd's default limit is 1.5 MiB).
  static let maximumBytes = 1_000_000

  /// The requests to send for `entries`: each inner list is tried in order until one of its
  /// transactions succeeds (a plain batch: one transaction without compare, which always does).
  static func requests(for entries: [Entry]) -> [[EtcdTxnRequest]] {
    var requests: [[EtcdTxnRequest]] = []
    var batch: [Entry] = []
    var batchCost = 0
    for entry in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
      if entry.cost > maximumBytes {
        requests.append(singleCopySteps(entry))
        continue
      }
      if batchCost + entry.cost > maximumBytes || batch.count == maximumOperations * maximumOperations {
        requests.append([transaction(batch)])
        (batch, batchCost) = ([], 0)
      }
      batch.append(entry)
      batchCost += entry.cost
    }
    if !batch.isEmpty { requests.append([transaction(batch)]) }
    return requests
  }

  /// One transaction saving every entry (nested in groups past ``maximumOperations``).
  private static func transaction(_ entries: [Entry]) -> EtcdTxnRequest {
    let operations = entries.map { EtcdRequestOp.txn(keepLater($0)) }
    guard operations.count > maximumOperations else { return EtcdTxnRequest(success: operations) }
    let groups = stride(from: 0, to: operations.count, by: maximumOperations).map { start in
      EtcdRequestOp.txn(EtcdTxnRequest(success: Array(operations[start..<min(start + maximumOperations, operations.count)])))
    }
    return EtcdTxnRequest(success: groups)
  }

  /// The nested transaction of one key: put when the stored record is older or missing.
  private static func keepLater(_ entry: Entry) -> EtcdTxnRequest {
    EtcdTxnRequest(
      compare: [isOlder(entry)], success: [.put(EtcdPutRequest(key: entry.key, value: entry.bytes))],
      failure: [.txn(createIfMissing(entry))])
  }

  private static func isOlder(_ entry: Entry) -> EtcdCompare {
    EtcdCompare(key: entry.key, target: .VALUE, result: .LESS, value: entry.header)
  }

  private static func createIfMissing(_ entry: Entry) -> EtcdTxnRequest {
    EtcdTxnRequest(
      compare: [EtcdCompare(key: entry.key, target: .CREATE, result: .EQUAL, create_revision: EtcdInt64(0))],
      success: [.put(EtcdPutRequest(key: entry.key, value: entry.bytes))])
  }

  /// A record too large to be sent twice: replace an older record, else create a missing one
  /// (each inner list is tried in order until one transaction succeeds).
  private static func singleCopySteps(_ entry: Entry) -> [EtcdTxnRequest] {
    let replace = EtcdTxnRequest(compare: [isOlder(entry)], success: [.put(EtcdPutRequest(key: entry.key, value: entry.bytes))])
    return [replace, createIfMissing(entry), replace]
  }
}

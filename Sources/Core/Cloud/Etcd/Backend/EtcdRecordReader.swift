import Foundation

/// Reads records from etcd key-values under one prefix.
enum EtcdRecordReader {
  /// The records of `kvs` by store key (later `mod_revision` wins within the list).
  ///
  /// A key-value that is not a valid record (see ``CloudRecordCodec/decode(_:)``) is skipped and
  /// told to ``RefusedRecords`` (a reply of a million bad key-values makes one line).
  static func records(_ kvs: [EtcdKeyValue], layout: EtcdKeyLayout) -> [String: CloudRecord] {
    var records: [String: CloudRecord] = [:]
    var refusals: [RefusedRecords.Refusal] = []
    for kv in kvs {
      guard let key = layout.storeKey(kv.key) else { continue }
      let bytes = kv.value ?? Data()
      do {
        records[key] = try CloudRecordCodec.decode(bytes)
      } catch {
        refusals.append(
          .init(location: "etcd key " + layout.prefix + key, bytes: bytes, reason: error.reason))
      }
    }
    RefusedRecords.report(refusals)
    return records
  }

  /// The highest `mod_revision` in `kvs` (0 for none).
  static func highestRevision(_ kvs: [EtcdKeyValue]) -> Int64 {
    kvs.compactMap { $0.modRevision?.value }.max() ?? 0
  }
}

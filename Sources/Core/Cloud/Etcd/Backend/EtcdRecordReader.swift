import Foundation

/// Reads records from etcd key-values under one prefix.
enum EtcdRecordReader {
  /// The records of `kvs` by store key (later `mod_revision` wins within the list). A key-value
  /// that is not an ObservableDefaults record is skipped and reported to ``Diagnostics``.
  static func records(_ kvs: [EtcdKeyValue], layout: EtcdKeyLayout) -> [String: CloudRecord] {
    var records: [String: CloudRecord] = [:]
    for kv in kvs {
      guard let key = layout.storeKey(kv.key) else { continue }
      do {
        records[key] = try EtcdRecordCodec.decode(kv.value ?? Data())
      } catch {
        Diagnostics.report(
          "NSUbiquitousKeyValueStore", "skipped etcd key \(layout.prefix)\(key): \(error)")
      }
    }
    return records
  }

  /// The highest `mod_revision` in `kvs` (0 for none).
  static func highestRevision(_ kvs: [EtcdKeyValue]) -> Int64 {
    kvs.compactMap { $0.modRevision?.value }.max() ?? 0
  }
}

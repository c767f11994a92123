import Foundation
import ObservableDefaultsCore

/// Reads records from etcd key-values under one prefix.
enum EtcdRecordReader {
  /// The records of `kvs` by store key (later `mod_revision` wins within the list); key-values
  /// that are not valid records are refused (see ``CloudRecordCodec/records(_:naming:)``).
  static func records(_ kvs: [EtcdKeyValue], layout: EtcdKeyLayout) -> DecodedRecords {
    let encoded = kvs.compactMap { kv in
      layout.storeKey(kv.key).map { (key: $0, bytes: kv.value ?? Data()) }
    }
    return CloudRecordCodec.records(encoded) { "etcd key \(layout.prefix)\($0)" }
  }

  /// The highest `mod_revision` in `kvs` (0 for none).
  static func highestRevision(_ kvs: [EtcdKeyValue]) -> Int64 {
    kvs.compactMap { $0.modRevision?.value }.max() ?? 0
  }
}

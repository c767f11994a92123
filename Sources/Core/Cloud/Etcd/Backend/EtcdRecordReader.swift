import Foundation

/// Reads records from etcd key-values under one prefix.
enum EtcdRecordReader {
  /// The records of `kvs` by store key (later `mod_revision` wins within the list).
  ///
  /// A key-value that is not a valid record (see ``CloudRecordCodec/decode(_:)``) is skipped, and
  /// the skipped keys of one call make one line to ``Diagnostics``: how many, and the first
  /// key with its reason (a reply of a million bad key-values must not write a million lines).
  static func records(_ kvs: [EtcdKeyValue], layout: EtcdKeyLayout) -> [String: CloudRecord] {
    var records: [String: CloudRecord] = [:]
    var skipped = 0
    var first: String?
    for kv in kvs {
      guard let key = layout.storeKey(kv.key) else { continue }
      do {
        records[key] = try CloudRecordCodec.decode(kv.value ?? Data())
      } catch {
        skipped += 1
        if first == nil { first = "\(layout.prefix)\(key): \(error.reason)" }
      }
    }
    if let first {
      let others = skipped == 1 ? "" : " (and \(skipped - 1) more)"
      Diagnostics.report("NSUbiquitousKeyValueStore", "skipped etcd key \(first)\(others)")
    }
    return records
  }

  /// The highest `mod_revision` in `kvs` (0 for none).
  static func highestRevision(_ kvs: [EtcdKeyValue]) -> Int64 {
    kvs.compactMap { $0.modRevision?.value }.max() ?? 0
  }
}

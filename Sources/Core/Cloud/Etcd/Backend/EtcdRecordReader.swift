import Foundation

/// The records read from etcd key-values, and the keys whose bytes were refused.
struct EtcdRecords {
  /// Store key → record.
  var records: [String: CloudRecord] = [:]
  /// Store key → why its bytes are not a valid record.
  var refused: [String: String] = [:]

  var isEmpty: Bool { records.isEmpty && refused.isEmpty }
}

/// Reads records from etcd key-values under one prefix.
enum EtcdRecordReader {
  /// The records of `kvs` by store key (later `mod_revision` wins within the list).
  ///
  /// A key-value that is not a valid record (see ``CloudRecordCodec/decode(_:)``) is skipped,
  /// named in ``EtcdRecords/refused`` and told to ``RefusedRecords`` (a reply of a million bad
  /// key-values makes one line).
  static func records(_ kvs: [EtcdKeyValue], layout: EtcdKeyLayout) -> EtcdRecords {
    var read = EtcdRecords()
    var refusals: [RefusedRecords.Refusal] = []
    for kv in kvs {
      guard let key = layout.storeKey(kv.key) else { continue }
      let bytes = kv.value ?? Data()
      do {
        read.records[key] = try CloudRecordCodec.decode(bytes)
        read.refused[key] = nil
      } catch {
        read.records[key] = nil
        read.refused[key] = error.reason
        refusals.append(
          .init(location: "etcd key " + layout.prefix + key, bytes: bytes, reason: error.reason))
      }
    }
    RefusedRecords.report(refusals)
    return read
  }

  /// The highest `mod_revision` in `kvs` (0 for none).
  static func highestRevision(_ kvs: [EtcdKeyValue]) -> Int64 {
    kvs.compactMap { $0.modRevision?.value }.max() ?? 0
  }
}

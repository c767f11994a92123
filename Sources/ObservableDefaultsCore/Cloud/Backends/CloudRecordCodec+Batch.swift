package import Foundation

/// The records a backend decoded from what it read, and the keys whose bytes were refused.
package struct DecodedRecords {
  /// Store key → record.
  package var records: [PropertyListKey: CloudRecord] = [:]
  /// Store key → why its bytes are not a valid record.
  package var refused: [PropertyListKey: String] = [:]

  /// Whether nothing was read.
  package var isEmpty: Bool { records.isEmpty && refused.isEmpty }
}

extension CloudRecordCodec {
  /// The records of `encoded` (store key → bytes, in the server's order: a later entry of a key
  /// wins), without the ones ``decode(_:)`` refuses and those no device keeping ``CloudQuota``
  /// could have stored (``CloudQuota/excess(key:value:)``), which are named in
  /// ``DecodedRecords/refused`` and told to ``RefusedRecords`` (one line per call, each refused
  /// record once: a reply of a million bad entries must not write a million lines), e.g.
  /// `skipped etcd key /r/c/a/k: not an ObservableDefaults record (3 bytes) (and 2 more)`.
  ///
  /// - Parameters:
  ///   - encoded: Store keys and their stored bytes.
  ///   - name: How the diagnostic names a store key's entry on the server (`etcd key /r/c/a/k`).
  package static func records(
    _ encoded: some Sequence<(key: String, bytes: Data)>, naming name: (String) -> String
  ) -> DecodedRecords {
    var decoded = DecodedRecords()
    var refusals: [RefusedRecords.Refusal] = []
    for (key, bytes) in encoded {
      do throws(CloudRecordError) {
        let record = try decode(bytes)
        if let excess = CloudQuota.excess(key: key, value: record.value) {
          throw CloudRecordError(reason: "the record is beyond the quota: \(excess)")
        }
        decoded.records[key] = record
        decoded.refused[key] = nil
      } catch {
        decoded.records[key] = nil
        decoded.refused[key] = error.reason
        refusals.append(.init(location: name(key), bytes: bytes, reason: error.reason))
      }
    }
    RefusedRecords.report(refusals)
    return decoded
  }
}

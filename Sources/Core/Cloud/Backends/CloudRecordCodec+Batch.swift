import Foundation

extension CloudRecordCodec {
  /// The records of `encoded` (store key → bytes, in the server's order: a later entry of a key
  /// wins), skipping the ones ``decode(_:)`` refuses.
  ///
  /// The skipped entries of one call make one line to ``Diagnostics``: how many, and the first
  /// with its reason (a reply of a million bad entries must not write a million lines), e.g.
  /// `skipped etcd key /r/c/a/k: not an ObservableDefaults record (3 bytes) (and 2 more)`.
  ///
  /// - Parameters:
  ///   - encoded: Store keys and their stored bytes.
  ///   - name: How the diagnostic names a store key's entry on the server (`etcd key /r/c/a/k`).
  package static func records(
    _ encoded: some Sequence<(key: String, bytes: Data)>, naming name: (String) -> String
  ) -> [String: CloudRecord] {
    var records: [String: CloudRecord] = [:]
    var skipped = 0
    var first: String?
    for (key, bytes) in encoded {
      do {
        records[key] = try decode(bytes)
      } catch {
        skipped += 1
        if first == nil { first = "\(name(key)): \(error.reason)" }
      }
    }
    if let first {
      let others = skipped == 1 ? "" : " (and \(skipped - 1) more)"
      Diagnostics.report("NSUbiquitousKeyValueStore", "skipped \(first)\(others)")
    }
    return records
  }
}

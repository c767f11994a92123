package import Foundation

/// The records refused on their way in — bytes a backend could not decode
/// (``CloudRecordCodec/decode(_:)``), timestamps a device does not admit
/// (``HybridLogicalClock/admits(_:)``) — told to ``Diagnostics`` the way people can read them:
/// one line per batch, naming how many and the first with its reason, and each refused record
/// (the same place with the same bytes) once per process: every save and every watch reads the
/// account again, and a planted record must not fill a log.
package enum RefusedRecords {
  /// One refused record.
  package struct Refusal {
    /// Where it is, for people: `etcd key /<root>/<container>/<account>/<key>`, `the record of
    /// <key>`.
    package let location: String
    /// Its bytes.
    package let bytes: Data
    /// Why it was refused.
    package let reason: String

    package init(location: String, bytes: Data, reason: String) {
      self.location = location
      self.bytes = bytes
      self.reason = reason
    }
  }

  /// The hashes of the records reported so far; emptied at ``rememberedLimit``.
  private static let reported = AnnotatedMutex<Set<UInt64>>([])
  private static let rememberedLimit = 100_000

  /// Reports the refusals not reported before, in one line: `skipped <location>: <reason> (and N
  /// more)`.
  package static func report(_ refusals: [Refusal]) {
    let new = reported.withLock { reported in
      if reported.count > rememberedLimit { reported.removeAll() }
      return refusals.filter {
        reported.insert(ByteHash.of(Data($0.location.utf8) + [0] + $0.bytes)).inserted
      }
    }
    guard let first = new.first else { return }
    let others = new.count == 1 ? "" : " (and \(new.count - 1) more)"
    Diagnostics.report(
      "NSUbiquitousKeyValueStore",
      "skipped \(first.location): \(first.reason)\(others)")
  }
}

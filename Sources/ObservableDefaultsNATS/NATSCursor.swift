import ObservableDefaultsCore

/// A resume point in one bucket: the bucket's identity (its stream's creation time, so a
/// bucket deleted and created again is another bucket) and the highest revision (stream
/// sequence) delivered. Encoded as `nats:<created>:<revision>` in ``CloudCursor/rawValue``.
struct NATSCursor: Sendable, Equatable {
  /// The stream's creation time in nanoseconds since 1970, as the server reports it.
  let created: Int64
  /// The highest revision delivered (0: none).
  let revision: UInt64

  init(created: Int64, revision: UInt64) {
    self.created = created
    self.revision = revision
  }

  /// The cursor in `cursor`, or nil when it is not a NATS cursor.
  init?(_ cursor: CloudCursor?) {
    guard let parts = cursor?.rawValue.split(separator: ":", omittingEmptySubsequences: false),
      parts.count == 3, parts[0] == "nats", let created = Int64(parts[1]),
      let revision = UInt64(parts[2])
    else { return nil }
    self.init(created: created, revision: revision)
  }

  var cloudCursor: CloudCursor {
    CloudCursor(rawValue: "nats:\(created):\(revision)")
  }
}

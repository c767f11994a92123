import ObservableDefaultsCore

/// A resume point in one bucket: the bucket's identity (its stream's creation time, so a
/// bucket deleted and created again is another bucket) and the highest revision (stream
/// sequence) delivered. Encoded as `nats:<created>:<revision>` in ``CloudCursor/rawValue``.
struct NATSCursor: CloudEngineCursor {
  static let engine = "nats"
  /// The stream's creation time in nanoseconds since 1970, as the server reports it.
  let created: Int64
  /// The highest revision delivered (0: none).
  let revision: UInt64

  init(created: Int64, revision: UInt64) {
    self.created = created
    self.revision = revision
  }

  init(identity: Int64, revision: UInt64) {
    self.init(created: identity, revision: revision)
  }

  var identity: Int64 { created }

  /// The cursor of a device that never read its bucket: resuming from it delivers everything.
  static let none = NATSCursor(created: 0, revision: 0).cloudCursor
}

import ObservableDefaultsCore

/// A resume point in one bucket: the bucket's identity (its stream's creation time, so a
/// bucket deleted and created again is another bucket) and the highest revision (stream
/// sequence) delivered. Encoded as `nats:<created>:<revision>` in ``CloudCursor/rawValue``.
struct NATSCursor: CloudEngineCursor {
  static let engine = "nats"
  /// The stream's creation time in nanoseconds since 1970, as the server reports it.
  let identity: Int64
  /// The highest revision delivered (0: none).
  let revision: UInt64

  /// The cursor of a device that never read its bucket: resuming from it delivers everything.
  static let none = NATSCursor(identity: 0, revision: 0).cloudCursor
}

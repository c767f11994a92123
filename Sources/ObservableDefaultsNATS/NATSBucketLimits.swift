import ObservableDefaultsCore

/// The limits a device gives a bucket it creates, held by the JetStream servers for every device
/// of the account, so that no device can fill the bucket past them.
///
/// ``CloudQuota`` (Apple's 1,024 keys and 1 MB, counted as Apple counts) is checked by each save
/// on exactly what the bucket holds (see ``NATSSave``); these limits, counted in stored bytes, are
/// the servers' own, which also bind clients of the account that do not use this library:
///
/// - **History**: 1 revision per key (JetStream's `MaxMsgsPerSubject`): a record carries its own
///   timestamp and removals are records, so older revisions serve nothing. A watch resuming from
///   any revision still gets every key changed since (the latest revision of each).
/// - **Value size**: ``maximumValueBytes``, a record of the largest value the quota allows. The
///   servers' `max_payload` must be at least that (its default is 1 MB).
/// - **Bucket bytes**: ``maximumBytes``. Beyond it the server refuses a write ("maximum bytes
///   exceeded", JetStream error 10077), which the device reports as ``CloudQuotaViolation``.
/// - **Keys**: ``maximumMessages``, JetStream's `MaxMsgs` with new messages discarded. With one
///   revision per key it counts the keys the bucket has ever held: a removal is a record (so
///   that an older write cannot bring the key back), which stays. So it allows
///   ``CloudQuota/maximumKeyCount`` keys and as many removed ones: no client of the account
///   stores more than twice Apple's keys however it writes (the library's merge holds Apple's
///   1,024 exactly, see ``NATSSave``), and a container that has removed more than 1,024
///   distinct keys takes fewer new ones. Beyond it the server refuses a new key ("maximum
///   messages exceeded", 10077), reported as ``CloudQuotaViolation``; a write that replaces a
///   key's revision is never refused.
enum NATSBucketLimits {
  /// Revisions kept per key.
  static let history: UInt8 = 1

  /// The largest record (2 MiB + 4 KiB): a value within ``CloudQuota/maximumTotalBytes`` takes at
  /// most about twice that as a binary property list (see ``CloudRecordCodec``), plus the
  /// record's header.
  static let maximumValueBytes: Int32 = Int32(2 * CloudQuota.maximumTotalBytes + 4096)

  /// The bucket's bytes (2.5 MiB): a full container's values as binary property lists (twice
  /// ``CloudQuota/maximumTotalBytes``) plus 512 bytes of subject, headers and record header for
  /// each of ``CloudQuota/maximumKeyCount`` keys. A write that replaces a key's revision counts
  /// only its growth (measured with nats-server 2.9.10).
  static let maximumBytes = Int64(
    2 * CloudQuota.maximumTotalBytes + 512 * CloudQuota.maximumKeyCount)

  /// The bucket's messages (2,049): ``CloudQuota/maximumKeyCount`` keys, as many removed keys,
  /// and the bucket's marker (``NATSKeyLayout/markerKey``).
  static let maximumMessages = Int64(2 * CloudQuota.maximumKeyCount + 1)
}

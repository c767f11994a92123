/// One key's state in a cloud container: its value (or its removal) and the timestamp that
/// decides conflicts.
public struct CloudRecord: @unchecked Sendable {
  /// The value in canonical property-list form, or nil when the key was removed. A removal is
  /// kept as a record (a tombstone) so that it wins over older writes from other devices.
  ///
  /// Unchecked `Sendable`: property-list values are immutable value types.
  public let value: Any?
  /// When and by which device the value was written.
  public let timestamp: CloudTimestamp

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - value: A canonical property-list value, or nil for a removal.
  ///   - timestamp: The write's timestamp.
  public init(value: Any?, timestamp: CloudTimestamp) {
    self.value = value
    self.timestamp = timestamp
  }
}

/// A resume point in a container's history: ``CloudBackend/subscribe(from:_:)`` delivers only the
/// changes saved after it. Opaque to the store; each backend defines its contents.
public struct CloudCursor: Sendable, Hashable {
  /// The backend's encoding of the point (the embedded and in-memory backends: a revision number).
  public let rawValue: String

  /// Creates a cursor from a backend's encoding.
  ///
  /// - Parameter rawValue: The encoded resume point.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }
}

/// Records read from a container, and the resume point just after them.
public struct CloudRecordBatch: Sendable {
  /// Key → record (removals included), by exact key (see ``PropertyListKey``).
  public let records: [PropertyListKey: CloudRecord]
  /// Where to resume to get the changes saved after these records.
  public let cursor: CloudCursor
  /// Key → why its record was refused: bytes the backend read that are not a valid record
  /// (see ``CloudRecord``); such a key is not in ``records``, and devices keep their own value.
  public let refused: [PropertyListKey: String]

  /// Creates a batch.
  ///
  /// - Parameters:
  ///   - records: Key → record.
  ///   - cursor: The resume point after them.
  ///   - refused: Key → why the record stored for it was refused (none by default).
  public init(
    records: [PropertyListKey: CloudRecord], cursor: CloudCursor,
    refused: [PropertyListKey: String] = [:]
  ) {
    self.records = records
    self.cursor = cursor
    self.refused = refused
  }
}

/// What a backend tells its subscriber.
public enum CloudBackendEvent: Sendable {
  /// Records saved (by any device) since the last event or the resume point subscribed from.
  case changed(CloudRecordBatch)
  /// This device now uses another account: the batch is everything stored for the new account,
  /// and replaces the device's copy.
  case accountChanged(account: String, CloudRecordBatch)
}

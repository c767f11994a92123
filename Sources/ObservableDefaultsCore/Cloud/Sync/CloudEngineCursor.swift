/// A sync engine's resume point in one account: the identity of what holds the account's records
/// (etcd's cluster, a NATS bucket's stream) and the highest revision delivered from it. Encoded
/// as `<engine>:<identity>:<revision>` in ``CloudCursor/rawValue``; a cursor of another identity
/// means "deliver everything again".
package protocol CloudEngineCursor: Sendable, Equatable {
  /// What tells one history of the account's records from another.
  associatedtype Identity: LosslessStringConvertible & Equatable & Sendable
  /// A position in that history.
  associatedtype Revision: LosslessStringConvertible & Comparable & Sendable

  /// The engine's name, the encoding's first field (`etcd`, `nats`).
  static var engine: String { get }
  /// The history the cursor is in.
  var identity: Identity { get }
  /// The highest revision delivered.
  var revision: Revision { get }

  init(identity: Identity, revision: Revision)
}

extension CloudEngineCursor {
  /// The cursor in `cursor`, or nil when it is not one of this engine (or malformed).
  package init?(_ cursor: CloudCursor?) {
    guard let parts = cursor?.rawValue.split(separator: ":", omittingEmptySubsequences: false),
      parts.count == 3, parts[0] == Self.engine, let identity = Identity(String(parts[1])),
      let revision = Revision(String(parts[2]))
    else { return nil }
    self.init(identity: identity, revision: revision)
  }

  /// The cursor as the store keeps it.
  package var cloudCursor: CloudCursor {
    CloudCursor(rawValue: "\(Self.engine):\(identity):\(revision)")
  }

  /// Whether a copy that resumes from `seen` moves on to this cursor: `seen` is no cursor of
  /// this engine, of another history, or behind.
  package func isAhead(of seen: CloudCursor?) -> Bool {
    guard let seen = Self(seen) else { return true }
    return seen.identity != identity || seen.revision < revision
  }
}

extension CloudDeviceJournal {
  /// Takes records a watch delivered up to `cursor`, and moves the resume point to it when it
  /// is ahead (deliveries of several watches may arrive out of order).
  package mutating func absorb<Cursor: CloudEngineCursor>(
    _ delivered: [PropertyListKey: CloudRecord], upTo cursor: Cursor
  ) {
    absorb(delivered)
    if cursor.isAhead(of: self.cursor) { self.cursor = cursor.cloudCursor }
  }

  /// The records and resume point (`none` when there is none), for a read without the network.
  package func localBatch(none: CloudCursor) -> CloudRecordBatch {
    CloudRecordBatch(records: records, cursor: cursor ?? none)
  }
}

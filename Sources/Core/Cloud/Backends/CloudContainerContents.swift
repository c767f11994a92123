/// What a container holds for one account: each key's latest record, numbered by the revision
/// that stored it. The revision counts saves that changed something; a cursor is a revision.
///
/// Shared by ``InMemoryCloudBackend`` and ``EmbeddedCloudBackend``.
struct CloudContainerContents {
  struct Entry {
    var record: CloudRecord
    /// The revision of the save that stored this record.
    var revision: Int
  }

  private(set) var revision = 0
  private(set) var entries: [String: Entry] = [:]

  init() {}

  init(revision: Int, entries: [String: Entry]) {
    self.revision = revision
    self.entries = entries
  }

  /// Keeps, for each key, the record with the greater timestamp; one new revision numbers the
  /// records taken.
  ///
  /// - Returns: Whether any record was taken (false: nothing changed, nothing to write).
  mutating func merge(_ records: [String: CloudRecord]) -> Bool {
    let newer = records.filter { key, record in
      entries[key].map { record.timestamp > $0.record.timestamp } ?? true
    }
    guard !newer.isEmpty else { return false }
    revision += 1
    for (key, record) in newer {
      entries[key] = Entry(record: record, revision: revision)
    }
    return true
  }

  /// The records stored after `cursor` (all of them for nil, for a cursor this container did not
  /// give, or for one past its revision — a container that was reset).
  func batch(after cursor: CloudCursor?) -> CloudRecordBatch {
    var after = cursor.flatMap { Int($0.rawValue) } ?? 0
    if after > revision { after = 0 }
    let records = entries.filter { $0.value.revision > after }.mapValues(\.record)
    return CloudRecordBatch(records: records, cursor: CloudCursor(rawValue: String(revision)))
  }
}

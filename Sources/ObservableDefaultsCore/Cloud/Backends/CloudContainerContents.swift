import Foundation

/// What a container holds for one account: each key's latest record, numbered by the revision
/// that stored it. The revision counts saves that changed something; a cursor is the container's
/// ``generation`` (when it has one) and a revision.
///
/// The container holds ``CloudQuota``'s limits across devices, as iCloud does on its side: each
/// device checks only its own copy, so two devices could otherwise fill it past the limits
/// together. ``merge(_:)`` refuses a record that would take the container past them (see
/// ``refusedKeys``); a backend then saves the rest and throws ``CloudQuotaViolation``.
///
/// Shared by every backend (``InMemoryCloudBackend``, ``EmbeddedCloudBackend``; a server-based
/// backend merges a save into the contents it read the same way).
package struct CloudContainerContents: Sendable {
  package struct Entry {
    package var record: CloudRecord
    /// The revision of the save that stored this record.
    package var revision: Int

    package init(record: CloudRecord, revision: Int) {
      self.record = record
      self.revision = revision
    }
  }

  private(set) var revision = 0
  /// The container's identity, when its backend gives it one (the embedded container: a random
  /// UUID chosen by the save that makes its file): a container made anew (its file removed and
  /// written again) starts its revisions again under another generation, so a cursor of the
  /// old one is not taken for a point in the new one. Nil for a container that has none.
  var generation: String?
  package private(set) var entries: [PropertyListKey: Entry] = [:]
  /// The keys the last ``merge(_:)`` refused because ``CloudQuota`` would be exceeded, sorted.
  package private(set) var refusedKeys: [PropertyListKey] = []

  init() {}

  package init(revision: Int, entries: [PropertyListKey: Entry]) {
    self.revision = revision
    self.entries = entries
  }

  /// Keeps, for each key, the record with the greater timestamp, unless storing it would take
  /// the container past ``CloudQuota`` (more keys with a value, more bytes, a longer key): such a
  /// record is refused and its key listed in ``refusedKeys``. Removals are always taken. Records
  /// are taken by the keys they add, then the bytes they add, fewest first (removals, then
  /// replacements, smaller before larger, then new keys), then in key order: a save that removes
  /// one key and adds another is taken whatever the keys' names (in key order alone, `key-1024`
  /// was refused before the removal of `key-8` made room), and every device decides alike. One
  /// new revision numbers them.
  ///
  /// - Returns: Whether any record was taken (false: nothing changed, nothing to write).
  package mutating func merge(_ records: [PropertyListKey: CloudRecord]) -> Bool {
    var keyCount = 0
    var totalBytes = 0
    for (key, entry) in entries {
      guard let value = entry.record.value else { continue }
      keyCount += 1
      totalBytes += CloudQuota.entryBytes(key: key, value: value)
    }
    var taken: [PropertyListKey: CloudRecord] = [:]
    refusedKeys = []
    /// The keys and bytes storing `record` adds (negative: frees).
    func growth(_ key: PropertyListKey, _ record: CloudRecord) -> (keys: Int, bytes: Int) {
      let old = entries[key]?.record.value
      return (
        (record.value == nil ? 0 : 1) - (old == nil ? 0 : 1),
        (record.value.map { CloudQuota.entryBytes(key: key, value: $0) } ?? 0)
          - (old.map { CloudQuota.entryBytes(key: key, value: $0) } ?? 0)
      )
    }
    let ordered = records.map { (key: $0.key, record: $0.value, growth: growth($0.key, $0.value)) }
      .sorted {
        ($0.growth.keys, $0.growth.bytes, $0.key) < ($1.growth.keys, $1.growth.bytes, $1.key)
      }
    for (key, record, _) in ordered {
      let old = entries[key]?.record
      guard old.map({ record.timestamp > $0.timestamp }) ?? true else { continue }
      let oldValue = old?.value
      let newKeyCount = keyCount - (oldValue == nil ? 0 : 1) + (record.value == nil ? 0 : 1)
      let newBytes =
        totalBytes - (oldValue.map { CloudQuota.entryBytes(key: key, value: $0) } ?? 0)
        + (record.value.map { CloudQuota.entryBytes(key: key, value: $0) } ?? 0)
      let grows = record.value != nil
      if grows,
        key.string.utf8.count > CloudQuota.maximumKeyBytes
          || (newKeyCount > CloudQuota.maximumKeyCount && newKeyCount > keyCount)
          || (newBytes > CloudQuota.maximumTotalBytes && newBytes > totalBytes)
      {
        refusedKeys.append(key)
        continue
      }
      keyCount = newKeyCount
      totalBytes = newBytes
      taken[key] = record
    }
    guard !taken.isEmpty else { return false }
    revision += 1
    for (key, record) in taken {
      entries[key] = Entry(record: record, revision: revision)
    }
    return true
  }

  /// The records stored after `cursor` (all of them for nil, for a cursor this container did not
  /// give — of another ``generation``, or past its revision: a container that was reset).
  ///
  /// The cursor is `<generation>:<revision>`, or `<revision>` for a container without a
  /// generation.
  ///
  /// A record no device keeping ``CloudQuota`` could have stored (``CloudQuota/excess(key:value:)``:
  /// a container file written by another program) is not given but refused, as a networked
  /// backend refuses one (``CloudRecordCodec/records(_:naming:)``), and told to
  /// ``RefusedRecords``.
  func batch(after cursor: CloudCursor?) -> CloudRecordBatch {
    var after = 0
    if let parts = cursor?.rawValue.split(separator: ":", omittingEmptySubsequences: false),
      let last = parts.last, let point = Int(last), parts.count <= 2,
      parts.dropLast().first.map(String.init) == generation, point <= revision
    {
      after = point
    }
    var records: [PropertyListKey: CloudRecord] = [:]
    var refused: [PropertyListKey: String] = [:]
    var refusals: [RefusedRecords.Refusal] = []
    for (key, entry) in entries where entry.revision > after {
      guard let excess = CloudQuota.excess(key: key.string, value: entry.record.value) else {
        records[key] = entry.record
        continue
      }
      let reason = "the record is beyond the quota: \(excess)"
      refused[key] = reason
      refusals.append(
        .init(
          location: "the container's record of \(key.string)", bytes: Data(reason.utf8),
          reason: reason))
    }
    RefusedRecords.report(refusals)
    let point = generation.map { "\($0):\(revision)" } ?? String(revision)
    return CloudRecordBatch(
      records: records, cursor: CloudCursor(rawValue: point), refused: refused)
  }
}

import Foundation
import ObservableDefaultsCore

/// One device's local copy of an account under etcd: the records last seen, the writes the
/// cluster has not acknowledged yet, and the resume point. It lets the device work offline: a
/// save lands here first, a load without a cluster answers from here, and — when kept in a file —
/// both survive a restart, so writes made offline are pushed when the cluster is back.
///
/// The file (binary property list) is `<state directory>/<container>/<account>.plist` (missing
/// folders of that path are made with mode 0700, the file with 0600), holding
/// `cursor` (a string) and `records` / `pending` (key → ``CloudRecordCodec`` bytes). It is written
/// through ``PropertyListFile`` (locked, atomic) after every save and acknowledgement, and is owned
/// by one process at a time: while another live process holds it (an exclusive `flock` on
/// `.<account>.plist.device`), a second process keeps its copy in memory only.
struct EtcdDeviceJournal {
  private(set) var records: [String: CloudRecord] = [:]
  private(set) var pending: [String: CloudRecord] = [:]
  var cursor: EtcdCursor?
  /// The file, when this process owns it.
  let file: URL?
  private let ownership: Int32?

  /// Opens the journal of `account` under `directory` (memory only for nil or a file owned by
  /// another process).
  ///
  /// - Throws: `PropertyListError` when the file exists but cannot be read as a journal (it is
  ///   left untouched).
  init(directory: URL?, container: String, account: String) throws {
    guard let directory else {
      (file, ownership) = (nil, nil)
      return
    }
    let folder = directory.appendingPathComponent(
      EtcdKeyLayout.encode(container), isDirectory: true)
    let url = folder.appendingPathComponent(EtcdKeyLayout.encode(account) + ".plist")
    // Missing folders are made 0700 (existing ones keep their mode, as for suites); a folder
    // that cannot be made leaves the journal in memory, as the failed `open` below does.
    try? PrivateFolder.create(folder, for: url)
    let descriptor = open(
      folder.appendingPathComponent("." + url.lastPathComponent + ".device").path,
      O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      if descriptor >= 0 { close(descriptor) }
      (file, ownership) = (nil, nil)
      return
    }
    (file, ownership) = (url, descriptor)
    guard let values = try PropertyListFile(url: url).read()?.values, !values.isEmpty else {
      return
    }
    records = try Self.decode(values["records"], in: url)
    pending = try Self.decode(values["pending"], in: url)
    cursor = EtcdCursor((values["cursor"] as? String).map(CloudCursor.init(rawValue:)))
  }

  /// Releases the file for other processes.
  func releaseFile() {
    if let ownership { close(ownership) }
  }

  /// Takes records from the cluster (keeping, per key, the later timestamp).
  mutating func absorb(_ incoming: [String: CloudRecord]) {
    for (key, record) in incoming
    where records[key].map({ record.timestamp > $0.timestamp }) ?? true {
      records[key] = record
    }
  }

  /// Adds writes to push (newer than what is pending per key).
  mutating func add(pending writes: [String: CloudRecord]) {
    for (key, record) in writes where pending[key].map({ record.timestamp > $0.timestamp }) ?? true
    {
      pending[key] = record
    }
    absorb(writes)
  }

  /// Forgets pending writes that were pushed (unless a newer write of the key came since).
  mutating func acknowledge(_ pushed: [String: CloudRecord]) {
    for (key, record) in pushed where pending[key]?.timestamp == record.timestamp {
      pending[key] = nil
    }
  }

  /// Forgets the records of `keys` that are still the ones `pushed` (the cluster refused them for
  /// the quota), so the cluster's record of each key takes its place at the next read.
  mutating func forget(_ keys: [String], of pushed: [String: CloudRecord]) {
    for key in keys where records[key]?.timestamp == pushed[key]?.timestamp {
      records[key] = nil
    }
  }

  /// Writes the journal to its file (nothing for a memory-only journal).
  ///
  /// - Throws: `PropertyListError` when the file cannot be written (it is then unchanged).
  func persist() throws {
    guard let file else { return }
    let values: [String: Any] = [
      "cursor": cursor?.cloudCursor.rawValue ?? "",
      "records": try records.mapValues(CloudRecordCodec.encode),
      "pending": try pending.mapValues(CloudRecordCodec.encode),
    ]
    try PropertyListFile(url: file).replaceContents(with: values, format: .binary)
  }

  private static func decode(_ value: Any?, in file: URL) throws -> [String: CloudRecord] {
    guard let encoded = value as? [String: Any] else { return [:] }
    return try encoded.mapValues { bytes in
      guard let bytes = bytes as? Data, let record = try? CloudRecordCodec.decode(bytes) else {
        throw PropertyListError(file: file, kind: .malformed, reason: "not an etcd device journal")
      }
      return record
    }
  }
}

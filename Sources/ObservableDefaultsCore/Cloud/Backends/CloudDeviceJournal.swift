package import Foundation

/// One device's local copy of an account under a sync engine (etcd, NATS): the records last
/// seen, the writes the servers have not acknowledged yet, and the resume point. It lets the
/// device work offline: a save lands here first, a load without a server answers from here, and
/// — when kept in a file — both survive a restart, so writes made offline are pushed when the
/// servers are back.
///
/// The file (binary property list) is `<state directory>/<container>/<account>.plist`, each
/// name percent-encoded (every byte but `A–Z a–z 0–9 - . _ ~`; missing folders of that path are
/// made with mode 0700, the file with 0600), holding `cursor` (the engine's ``CloudCursor``
/// text) and `records` / `pending` (exact key → ``CloudRecordCodec`` bytes). It is written through
/// ``PropertyListFile`` (locked, atomic) after every save and acknowledgement, and is owned by
/// one process at a time: while another live process holds it (an exclusive `flock` on
/// `.<account>.plist.device`), a second process keeps its copy in memory only.
package struct CloudDeviceJournal: Sendable {
  package private(set) var records: [PropertyListKey: CloudRecord] = [:]
  package private(set) var pending: [PropertyListKey: CloudRecord] = [:]
  /// The timestamps of the pending writes the store handed to the backend in this process (not
  /// kept in the file): the store counts those among its own pending writes.
  private var handed: [PropertyListKey: CloudTimestamp] = [:]
  /// Where the records leave off in the engine's history (nil: never read).
  package var cursor: CloudCursor?
  /// The file, when this process owns it.
  package let file: URL?
  /// The file's place (nil for a journal in memory only by choice), owned by this process or not.
  package let location: URL?
  private let ownership: FileDescriptor?

  /// Opens the journal of `account` under `directory` (memory only for nil or a file owned by
  /// another process).
  ///
  /// - Throws: `PropertyListError` when the file exists but cannot be read as a journal (it is
  ///   left untouched).
  package init(directory: URL?, container: String, account: String) throws {
    guard let directory else {
      (file, location, ownership) = (nil, nil, nil)
      return
    }
    let folder = directory.appendingPathComponent(
      Self.encode(container), isDirectory: true)
    let url = folder.appendingPathComponent(Self.encode(account) + ".plist")
    location = url
    // Missing folders are made 0700 (existing ones keep their mode, as for suites); a folder
    // that cannot be made leaves the journal in memory, as the failed `open` below does.
    try? PrivateFolder.create(folder, for: url)
    let descriptor = try? FileDescriptor.open(
      folder.appendingPathComponent("." + url.lastPathComponent + ".device").path,
      [.readWrite, .create], creatingWith: 0o600)
    guard let descriptor, descriptor.tryLockExclusively() else {
      descriptor?.close()
      (file, ownership) = (nil, nil)
      return
    }
    (file, ownership) = (url, descriptor)
    guard let values = try PropertyListFile(url: url).read()?.values, !values.isEmpty else {
      return
    }
    records = try Self.decode(values["records"], in: url)
    pending = try Self.decode(values["pending"], in: url)
    cursor = (values["cursor"] as? String).flatMap { $0.isEmpty ? nil : CloudCursor(rawValue: $0) }
  }

  /// Whether another live process holds the file (this journal then lives in memory only).
  package var isHeldElsewhere: Bool { location != nil && file == nil }

  /// How many pending writes the journal file at `url` holds (for a file that another process
  /// holds, read without taking it).
  ///
  /// - Throws: `PropertyListError` when the file cannot be read as a journal.
  package static func pendingCount(at url: URL) throws -> Int {
    let values = try PropertyListFile(url: url).read()?.values ?? [:]
    return try decode(values["pending"], in: url).count
  }

  /// Releases the file for other processes.
  package func releaseFile() {
    ownership?.close()
  }

  /// Takes records from the cluster (keeping, per key, the later timestamp).
  ///
  /// - Returns: Whether any record was taken.
  @discardableResult
  package mutating func absorb(_ incoming: [PropertyListKey: CloudRecord]) -> Bool {
    var changed = false
    for (key, record) in incoming
    where records[key].map({ record.timestamp > $0.timestamp }) ?? true {
      records[key] = record
      changed = true
    }
    return changed
  }

  /// Adds writes to push (newer than what is pending per key).
  package mutating func add(pending writes: [PropertyListKey: CloudRecord]) {
    for (key, record) in writes where pending[key].map({ record.timestamp > $0.timestamp }) ?? true
    {
      pending[key] = record
    }
    absorb(writes)
  }

  /// Adds writes the store hands to the backend (see ``unhandedPendingCount``).
  package mutating func add(handed writes: [PropertyListKey: CloudRecord]) {
    handed.merge(writes.mapValues(\.timestamp)) { $1 }
    add(pending: writes)
  }

  /// Notes that the store counts `writes` (handed to the backend) no longer.
  package mutating func takeBack(_ writes: [PropertyListKey: CloudRecord]) {
    for (key, record) in writes where handed[key] == record.timestamp { handed[key] = nil }
  }

  /// The pending writes the store does not count itself: those of an earlier run, or written
  /// again by the backend (see ``add(handed:)``).
  package var unhandedPendingCount: Int {
    pending.count(where: { handed[$0.key] != $0.value.timestamp })
  }

  /// Forgets pending writes that were pushed (unless a newer write of the key came since).
  package mutating func acknowledge(_ pushed: [PropertyListKey: CloudRecord]) {
    for (key, record) in pushed where pending[key]?.timestamp == record.timestamp {
      pending[key] = nil
    }
    takeBack(pushed)
  }

  /// Forgets the records of `keys` that are still the ones `pushed` (the cluster refused them for
  /// the quota), so the cluster's record of each key takes its place at the next read.
  package mutating func forget(_ keys: [PropertyListKey], of pushed: [PropertyListKey: CloudRecord])
  {
    for key in keys where records[key]?.timestamp == pushed[key]?.timestamp {
      records[key] = nil
    }
  }

  /// Writes the journal to its file (nothing for a memory-only journal).
  ///
  /// The journal's folder was made (or found) when the journal was opened, and is not made
  /// again: a folder removed since (the user cleared the state folder, a test its temporary
  /// folder) stays removed, and the write fails naming it. Failing, not dropping the write
  /// silently: the pending writes stay in memory and are still pushed while the program runs,
  /// and the failure is reported (``persistReportingFailure()``, and at exit
  /// ``CloudUnsentWrites`` says they are lost rather than kept), so nothing acknowledged is lost
  /// without a word, and no folder its owner removed comes back.
  ///
  /// - Throws: `PropertyListError` when the file cannot be written (it is then unchanged), of
  ///   kind `.unwritable` naming the folder when it was removed.
  package func persist() throws {
    guard let file else { return }
    // Keyed by exact key (`[PropertyListKey: Any]`, which the writer takes as a dictionary): two
    // keys that differ only in Unicode normalization are two records.
    let encode = { (record: CloudRecord) throws -> Any in try CloudRecordCodec.encode(record) }
    let values: [PropertyListKey: Any] = [
      "cursor": cursor?.rawValue ?? "",
      "records": try records.mapValues(encode),
      "pending": try pending.mapValues(encode),
    ]
    var written: PropertyListSnapshot?
    try PropertyListFile(url: file, makingMissingFolders: false).update(known: &written) {
      document in
      document = PropertyListDocument(values: values, format: .binary)
      return true
    }
  }

  /// The `$XDG_STATE_HOME/ObservableDefaults/<engine>` folder of `environment`, else
  /// `~/.local/state/ObservableDefaults/<engine>` (XDG Base Directory Specification: state data
  /// that should persist between restarts).
  package static func defaultDirectory(engine: String, environment: [String: String]) -> URL {
    if let value = environment["XDG_STATE_HOME"], value.hasPrefix("/") {
      return URL(fileURLWithPath: value, isDirectory: true).appendingPathComponent(
        "ObservableDefaults/\(engine)", isDirectory: true)
    }
    let home =
      environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? FileManager.default.homeDirectoryForCurrentUser
    return home.appendingPathComponent(
      ".local/state/ObservableDefaults/\(engine)", isDirectory: true)
  }

  /// ``persist()``, reporting a failure to `Diagnostics` (the device keeps working from memory).
  ///
  /// - Returns: The failure's description, or nil when the file was written.
  package func persistReportingFailure() -> String? {
    do {
      try persist()
      return nil
    } catch {
      Diagnostics.report("NSUbiquitousKeyValueStore", "\(error)")
      return "\(error)"
    }
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  private static func encode(_ name: String) -> String {
    name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? name
  }

  private static func decode(_ value: Any?, in file: URL) throws -> [PropertyListKey: CloudRecord] {
    guard let encoded = value.flatMap(exactDictionary) else { return [:] }
    return try encoded.mapValues { bytes in
      guard let bytes = bytes as? Data, let record = try? CloudRecordCodec.decode(bytes) else {
        throw PropertyListError(file: file, kind: .malformed, reason: "not a device journal")
      }
      return record
    }
  }
}

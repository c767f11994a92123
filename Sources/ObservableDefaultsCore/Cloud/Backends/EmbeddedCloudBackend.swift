public import Foundation

/// The default cloud backend: a container on disk shared by the processes of this machine.
///
/// Each backend instance is one device (each process using ``NSUbiquitousKeyValueStore/default``
/// is one). The container's data for the current account is one property-list file,
/// `<root>/<container>/<account>/store.plist` (binary), holding each key's latest value or
/// removal with its timestamp and the revision that stored it (see
/// ``CloudContainerDirectory``). Saves go through the core's ``PropertyListFile``: locked,
/// re-read, merged per key by timestamp (the later write wins), written atomically, and not
/// written at all when nothing changes. Other devices' saves are seen through inotify on the
/// account's folder and delivered to subscribers with exactly the keys saved.
///
/// The save that makes the file gives the container a generation (a random identity). A
/// device that finds another generation than the one it last read — the file was removed and
/// made again, or replaced by another container — writes every record it last read into it
/// again, each with its timestamp (the later write of each key wins, whichever device writes
/// first), and delivers the new container's records from its start: no acknowledged write is
/// lost to a container made anew, as a NATS device does for a bucket deleted and made again.
///
/// The account's folder is made (mode 0700, with its missing parents) by a device that has not
/// found it yet. Once a device has read or written the container there, it never makes the
/// folder again: a folder removed under it (the user deleted the container, or a program its
/// data) stays removed, and the device's saves fail, naming it, until a new device makes it.
///
/// ```swift
/// let backend = EmbeddedCloudBackend(root: folder, container: "com.example.app")
/// let store = NSUbiquitousKeyValueStore(backend: backend)
/// ```
public final class EmbeddedCloudBackend: CloudBackend, CloudContainerSource, Sendable {
  /// The folder holding containers.
  public let root: URL
  /// The container's folder name.
  public let container: String
  private let subscribers = CloudSubscribers(label: "embedded")

  private struct State {
    var account: String
    var watch: ObservationToken?
    /// The outcome of the last load or save: `connecting` before the first.
    var connection = CloudSyncStatus.Connection.connecting
    var lastSync: Date?
    var lastError: String?
    var fallbackReason: String?
    /// The contents of the current account's container as this device last read or wrote them
    /// (nil before the first read of an existing file): what it writes again into a container
    /// of another generation.
    var known: CloudContainerContents?
    /// Whether this device has read or written the current account's container in its folder:
    /// the folder is not made again once this is true (see the type's description).
    var hasFoundFolder = false
  }
  private let state: AnnotatedMutex<State>

  /// Connects a new device to a container.
  ///
  /// - Parameters:
  ///   - root: The folder holding containers (tests pass a temporary folder).
  ///   - container: The container's name (`/` becomes `_`).
  ///   - account: The account the device is signed into (`/` becomes `_`).
  public init(
    root: URL = CloudContainerDirectory.url,
    container: String = CloudContainerDirectory.defaultContainer,
    account: String = CloudContainerDirectory.defaultAccount
  ) {
    self.root = root.standardizedFileURL
    self.container = CloudContainerDirectory.folderName(container)
    state = AnnotatedMutex(State(account: CloudContainerDirectory.folderName(account)))
    subscribers.source = self
  }

  /// The account this device is signed into.
  public var account: String {
    state.withLock { $0.account }
  }

  /// The file of the current account's data (it need not exist yet).
  public var fileURL: URL {
    fileURL(for: account)
  }

  private func fileURL(for account: String) -> URL {
    root.appendingPathComponent(container, isDirectory: true)
      .appendingPathComponent(account, isDirectory: true)
      .appendingPathComponent("store.plist", isDirectory: false)
  }

  /// The backend the configuration names and why it is not used, when the shared store fell
  /// back to this container (see ``CloudSyncStatus/fallback``); nil otherwise.
  package var fallback: String? {
    get { state.withLock { $0.fallbackReason } }
    set { state.withLock { $0.fallbackReason = newValue } }
  }

  /// `embedded`, the container file as endpoint, and the outcome of the last load or save:
  /// `connected` (having reached the quorum of the one container file: it was read or written
  /// under its lock) after a success, `offline` with the error after a failure, `connecting`
  /// before the first.
  public var syncStatus: CloudSyncStatus {
    let path = fileURL.path
    return state.withLock {
      CloudSyncStatus(
        backend: "embedded", endpoint: path, account: $0.account, connection: $0.connection,
        lastSync: $0.lastSync, lastError: $0.lastError, reachedQuorum: true,
        fallback: $0.fallbackReason)
    }
  }

  /// Runs one exchange with the container file and notes its outcome for ``syncStatus``.
  private func exchange<T>(_ body: () throws -> T) throws -> T {
    do {
      let result = try body()
      state.withLock {
        $0.connection = .connected
        $0.lastSync = Date()
        $0.lastError = nil
      }
      return result
    } catch let violation as CloudQuotaViolation {
      state.withLock {
        $0.connection = .connected
        $0.lastSync = Date()
        $0.lastError = "\(violation)"
      }
      throw violation
    } catch {
      state.withLock {
        $0.connection = .offline
        $0.lastError = "\(error)"
      }
      throw error
    }
  }

  /// Reads the current account's container; when it is another generation than the one this
  /// device last read, writes the records it last read into it first (see the type's
  /// description; when that write fails, the contents read are given, and the next read tries
  /// again). A missing file is read as empty, and written only by a save.
  func readContents() throws -> CloudContainerContents {
    let url = fileURL
    let contents = try contents(at: url)
    guard contents.generation != nil else { return contents }
    let resend = state.withLock {
      $0.hasFoundFolder = true
      return $0.known.flatMap { $0.generation == contents.generation ? nil : $0 }
    }
    guard let resend else {
      state.withLock { $0.known = contents }
      return contents
    }
    return (try? save([:], resending: resend, to: url).contents) ?? contents
  }

  private func contents(at url: URL) throws -> CloudContainerContents {
    let values = try PropertyListFile(url: url).read()?.values ?? [:]
    return try CloudContainerContents(propertyList: values, file: url)
  }

  /// Where writes wait while the container file cannot be read or written: `pending.plist`
  /// beside it, in the container's own format. Kept across exits; merged into the container (and
  /// emptied) by the first load or save that finds the container readable again.
  private var pendingURL: URL {
    fileURL.deletingLastPathComponent().appendingPathComponent("pending.plist", isDirectory: false)
  }

  /// Reads everything stored for the current account (nothing when the file does not exist),
  /// after merging the writes kept while the container did not parse.
  ///
  /// - Throws: ``PropertyListError`` when the file cannot be read or is not a container.
  public func load() throws -> CloudRecordBatch {
    try exchange {
      recoverPending()
      return try readContents().batch(after: nil)
    }
  }

  /// Merges `records` into the file under its lock, keeping per key the later timestamp; the
  /// file is not rewritten when no record is newer.
  ///
  /// While the container file cannot be read or written, the records are also kept in
  /// `pending.plist` beside it (when its folder can be written), so they outlive this process
  /// and reach the container once it is readable again.
  ///
  /// - Throws: ``PropertyListError`` (the file is then unchanged); ``CloudQuotaViolation`` naming
  ///   the records refused for the container's quota (the others are saved).
  public func save(_ records: [PropertyListKey: CloudRecord]) throws {
    try exchange {
      try checkFolderNotRemoved(of: fileURL)
      recoverPending()
      let refused: [PropertyListKey]
      do {
        refused = try save(records, resending: state.withLock { $0.known }, to: fileURL).refused
      } catch let error as PropertyListError {
        // Beside the container file, whose folder the save found or made: never made here.
        _ = try? Self.merge(records, intoFileAt: pendingURL, makingMissingFolders: false)
        throw error
      }
      if !refused.isEmpty { throw CloudQuotaViolation(keys: refused) }
    }
  }

  /// Merges `records` into the container file at `url` — and, when the file is not of
  /// `known`'s generation (made anew, or missing), `known`'s records too — and notes the
  /// contents as this device's ``known``.
  ///
  /// - Returns: The keys refused for the quota, and the container's contents after the merge.
  /// - Throws: ``PropertyListError`` of kind `.unwritable` when the account's folder was removed
  ///   after this device found it (it is not made again), or the merge's error.
  private func save(
    _ records: [PropertyListKey: CloudRecord], resending known: CloudContainerContents?,
    to url: URL
  ) throws -> (refused: [PropertyListKey], contents: CloudContainerContents) {
    try checkFolderNotRemoved(of: url)
    // Checked again by the write itself: a folder removed after the check is not made either.
    let hasFoundFolder = state.withLock { $0.hasFoundFolder }
    let (refused, contents) = try Self.merge(
      records, intoFileAt: url, makingMissingFolders: !hasFoundFolder, resending: known)
    state.withLock {
      guard url == fileURL(for: $0.account) else { return }
      $0.known = contents
      $0.hasFoundFolder = true
    }
    return (refused, contents)
  }

  /// Throws when the folder of `url` (the current account's container file) was removed after
  /// this device found it: it is not made again, neither for the container nor for the writes
  /// kept while it cannot be written (see the type's description).
  ///
  /// - Throws: ``PropertyListError`` of kind `.unwritable`, naming the folder.
  private func checkFolderNotRemoved(of url: URL) throws {
    let folder = url.deletingLastPathComponent()
    guard state.withLock({ $0.hasFoundFolder }), (try? Stat(folder.path)) == nil else { return }
    throw PropertyListError(
      file: url, kind: .unwritable,
      reason: "its folder \(folder.path) was removed; a device that used it does not make it again")
  }

  /// The file keeping the writes that could not reach the container, when it exists (see
  /// ``save(_:)``): what a program exiting with such writes names.
  package var keptWritesFile: URL? {
    let url = pendingURL
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }

  /// Merges `records` into the container-format file at `url` under its lock; when the file
  /// is not of `known`'s generation, `known`'s records too (per key the later timestamp). A
  /// file made by the merge gets a new generation.
  ///
  /// - Parameter makingMissingFolders: Whether the file's missing folders are made (only by a
  ///   device that has not found the account's folder yet).
  /// - Returns: The keys refused for the quota, and the file's contents after the merge.
  @discardableResult
  private static func merge(
    _ records: [PropertyListKey: CloudRecord], intoFileAt url: URL, makingMissingFolders: Bool,
    resending known: CloudContainerContents? = nil
  ) throws -> (refused: [PropertyListKey], contents: CloudContainerContents) {
    var merged = CloudContainerContents()
    var written: PropertyListSnapshot?
    let file = PropertyListFile(url: url, makingMissingFolders: makingMissingFolders)
    try file.update(known: &written) { document in
      merged = try CloudContainerContents(propertyList: document.values, file: url)
      var records = records
      if let known, known.generation != merged.generation {
        for (key, entry) in known.entries
        where records[key].map({ $0.timestamp < entry.record.timestamp }) ?? true {
          records[key] = entry.record
        }
      }
      guard merged.merge(records) else { return false }
      if merged.generation == nil { merged.generation = UUID().uuidString }
      document.values = merged.propertyList
      document.format = .binary
      return true
    }
    return (merged.refusedKeys, merged)
  }

  /// Moves the writes kept in `pending.plist` into the container when it is readable; leaves
  /// them when it is not.
  private func recoverPending() {
    let pending = pendingURL
    guard FileManager.default.fileExists(atPath: pending.path) else { return }
    let container = fileURL
    var written: PropertyListSnapshot?
    // Both files are in the account's folder, where the pending file was found: not made again.
    let file = PropertyListFile(url: pending, makingMissingFolders: false)
    _ = try? file.update(known: &written) { document in
      let records = try CloudContainerContents(propertyList: document.values, file: pending)
        .batch(after: nil).records
      guard !records.isEmpty else { return false }
      do {
        try Self.merge(records, intoFileAt: container, makingMissingFolders: false)
      } catch is CloudQuotaViolation {
        // The container refused some: they are dropped, as a device's refused writes are.
      }
      document.values = [:]
      return true
    }
  }

  /// Watches the account's folder (creating it) and delivers the records saved after `cursor`,
  /// then every later save, on this device's queue.
  public func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  ) -> ObservationToken {
    state.withLock { startWatching(&$0) }
    return subscribers.add(from: cursor, handler)
  }

  /// Switches to `account`'s folder (`/` becomes `_`) and delivers its records to subscribers as
  /// an account change.
  ///
  /// - Throws: ``PropertyListError`` when the new account's file cannot be read; the device keeps
  ///   its account then.
  public func switchAccount(to account: String) throws {
    let account = CloudContainerDirectory.folderName(account)
    try subscribers.switchAccount {
      let contents = try contents(at: fileURL(for: account))
      state.withLock { state in
        state.account = account
        state.known = contents.generation == nil ? nil : contents
        state.hasFoundFolder = contents.generation != nil
        if state.watch != nil {
          state.watch = nil
          startWatching(&state)
        }
      }
      return (account, contents)
    }
  }

  /// Creates the current account's folder (mode 0700) unless this device found it before (once
  /// made, it counts as found), and watches its file.
  private func startWatching(_ state: inout State) {
    guard state.watch == nil else { return }
    let file = fileURL(for: state.account)
    if !state.hasFoundFolder {
      // Made here, it is found: a save after it was removed fails instead of making it again.
      let folder = file.deletingLastPathComponent()
      state.hasFoundFolder = (try? PrivateFolder.create(folder, for: file)) != nil
    }
    state.watch = DirectoryWatcher.shared.watch(fileAt: SymbolicLinks.identity(of: file)) {
      [weak self] in
      self?.subscribers.contentsDidChange()
    }
  }
}

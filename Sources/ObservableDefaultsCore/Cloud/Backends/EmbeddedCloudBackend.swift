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
/// ```swift
/// let backend = EmbeddedCloudBackend(root: folder, container: "com.example.app")
/// let store = NSUbiquitousKeyValueStore(backend: backend)
/// ```
public final class EmbeddedCloudBackend: CloudBackend, CloudContainerSource, @unchecked Sendable {
  /// The folder holding containers.
  public let root: URL
  /// The container's folder name.
  public let container: String
  private let subscribers = CloudSubscribers(label: "embedded")
  private let lock = NSLock()
  // Guarded by `lock`.
  private var currentAccount: String
  private var watch: ObservationToken?

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
    currentAccount = CloudContainerDirectory.folderName(account)
    subscribers.source = self
  }

  /// The account this device is signed into.
  public var account: String {
    lock.withLock { currentAccount }
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

  /// `embedded`, the container file as endpoint, always connected (the file is local).
  public var syncStatus: CloudSyncStatus {
    CloudSyncStatus(
      backend: "embedded", endpoint: fileURL.path, account: account, connection: .connected)
  }

  func readContents() throws -> CloudContainerContents {
    try contents(at: fileURL)
  }

  private func contents(at url: URL) throws -> CloudContainerContents {
    let values = try PropertyListFile(url: url).read()?.values.stringKeyed ?? [:]
    return try CloudContainerContents(propertyList: values, file: url)
  }

  /// Where writes wait while the container file does not parse: `pending.plist` beside it, in
  /// the container's own format. Kept across exits; merged into the container (and emptied) by
  /// the first load or save that finds the container readable again.
  private var pendingURL: URL {
    fileURL.deletingLastPathComponent().appendingPathComponent("pending.plist", isDirectory: false)
  }

  /// Reads everything stored for the current account (nothing when the file does not exist),
  /// after merging the writes kept while the container did not parse.
  ///
  /// - Throws: ``PropertyListError`` when the file cannot be read or is not a container.
  public func load() throws -> CloudRecordBatch {
    recoverPending()
    return try readContents().batch(after: nil)
  }

  /// Merges `records` into the file under its lock, keeping per key the later timestamp; the
  /// file is not rewritten when no record is newer.
  ///
  /// While the container file does not parse, the records are also kept in `pending.plist`
  /// beside it, so they outlive this process and reach the container once it is readable again.
  ///
  /// - Throws: ``PropertyListError`` (the file is then unchanged); ``CloudQuotaViolation`` naming
  ///   the records refused for the container's quota (the others are saved).
  public func save(_ records: [String: CloudRecord]) throws {
    recoverPending()
    let refused: [String]
    do {
      refused = try Self.merge(records, intoFileAt: fileURL)
    } catch let error as PropertyListError where error.kind == .malformed {
      _ = try? Self.merge(records, intoFileAt: pendingURL)
      throw error
    }
    if !refused.isEmpty { throw CloudQuotaViolation(keys: refused) }
  }

  /// Merges `records` into the container-format file at `url` under its lock.
  ///
  /// - Returns: The keys refused for the quota.
  private static func merge(_ records: [String: CloudRecord], intoFileAt url: URL) throws
    -> [String]
  {
    var refused: [String] = []
    _ = try PropertyListFile(url: url).updateSnapshot { document in
      var contents = try CloudContainerContents(
        propertyList: document.values.stringKeyed, file: url)
      let changed = contents.merge(records)
      refused = contents.refusedKeys
      guard changed else { return false }
      document.values = [PropertyListKey: Any](exactKeys: contents.propertyList)
      document.format = .binary
      return true
    }
    return refused
  }

  /// Moves the writes kept in `pending.plist` into the container when it is readable; leaves
  /// them when it is not.
  private func recoverPending() {
    let pending = pendingURL
    guard FileManager.default.fileExists(atPath: pending.path) else { return }
    let container = fileURL
    _ = try? PropertyListFile(url: pending).updateSnapshot { document in
      let records = try CloudContainerContents(
        propertyList: document.values.stringKeyed, file: pending
      )
      .batch(after: nil).records
      guard !records.isEmpty else { return false }
      do {
        _ = try Self.merge(records, intoFileAt: container)
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
    lock.withLock { startWatching() }
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
      lock.withLock {
        currentAccount = account
        if watch != nil {
          watch = nil
          startWatching()
        }
      }
      return (account, contents)
    }
  }

  /// Creates the current account's folder (mode 0700) and watches its file (called with `lock` held).
  private func startWatching() {
    guard watch == nil else { return }
    let file = fileURL(for: currentAccount)
    let folder = file.deletingLastPathComponent()
    try? PrivateFolder.create(folder, for: file)
    watch = DirectoryWatcher.shared.watch(fileAt: SymbolicLinks.identity(of: file)) { [weak self] in
      self?.subscribers.contentsDidChange()
    }
  }
}

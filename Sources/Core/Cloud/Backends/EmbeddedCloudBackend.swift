import Foundation

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
  private var watch: DefaultsObservation?

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

  func readContents() throws -> CloudContainerContents {
    try contents(at: fileURL)
  }

  private func contents(at url: URL) throws -> CloudContainerContents {
    let values = try PropertyListFile(url: url).read()?.values ?? [:]
    return try CloudContainerContents(propertyList: values, file: url)
  }

  /// Reads everything stored for the current account (nothing when the file does not exist).
  ///
  /// - Throws: ``PropertyListError`` when the file cannot be read or is not a container.
  public func load() throws -> CloudRecordBatch {
    try readContents().batch(after: nil)
  }

  /// Merges `records` into the file under its lock, keeping per key the later timestamp; the
  /// file is not rewritten when no record is newer.
  ///
  /// - Throws: ``PropertyListError`` (the file is then unchanged).
  public func save(_ records: [String: CloudRecord]) throws {
    let url = fileURL
    var snapshot: PropertyListSnapshot?
    try PropertyListFile(url: url).update(known: &snapshot) { document in
      var contents = try CloudContainerContents(propertyList: document.values, file: url)
      guard contents.merge(records) else { return false }
      document.values = contents.propertyList
      document.format = .binary
      return true
    }
  }

  /// Watches the account's folder (creating it) and delivers the records saved after `cursor`,
  /// then every later save, on this device's queue.
  public func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  ) -> DefaultsObservation {
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

  /// Creates the current account's folder and watches its file (called with `lock` held).
  private func startWatching() {
    guard watch == nil else { return }
    let file = fileURL(for: currentAccount)
    let folder = file.deletingLastPathComponent()
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let resolved = folder.resolvingSymlinksInPath().appendingPathComponent(file.lastPathComponent)
    watch = DirectoryWatcher.shared.watch(fileAt: resolved) { [weak self] in
      self?.subscribers.contentsDidChange()
    }
  }
}

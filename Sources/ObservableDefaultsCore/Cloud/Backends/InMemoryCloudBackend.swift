import Foundation

/// A cloud backend in memory: a container that lives as long as one of its devices.
///
/// ``NSUbiquitousKeyValueStore/inMemory()`` uses a fresh one (development mode, previews). In
/// tests, ``anotherDevice(account:)`` connects a second device to the same container; changes
/// reach the other devices' subscribers on their queues, as with the embedded backend.
///
/// ```swift
/// let phone = InMemoryCloudBackend()
/// let laptop = phone.anotherDevice()
/// let a = NSUbiquitousKeyValueStore(backend: phone)
/// let b = NSUbiquitousKeyValueStore(backend: laptop)
/// ```
public final class InMemoryCloudBackend: CloudBackend, CloudContainerSource, Sendable {
  /// The container the devices share: each account's contents, and the devices to tell.
  private final class Container: Sendable {
    private let accounts = AnnotatedMutex<[String: CloudContainerContents]>([:])
    private let devices = WeakRegistry<ObjectIdentifier, InMemoryCloudBackend>()

    func contents(of account: String) -> CloudContainerContents {
      accounts.withLock { $0[account] ?? CloudContainerContents() }
    }

    func connect(_ device: InMemoryCloudBackend) {
      _ = devices.object(for: ObjectIdentifier(device)) { device }
    }

    /// Merges `records` into `account` and tells every device when something changed.
    ///
    /// - Returns: The keys refused for the quota.
    func save(_ records: [PropertyListKey: CloudRecord], to account: String) -> [PropertyListKey] {
      let (changed, refused): (Bool, [PropertyListKey]) = accounts.withLock { accounts in
        var contents = accounts[account] ?? CloudContainerContents()
        let changed = contents.merge(records)
        if changed { accounts[account] = contents }
        return (changed, contents.refusedKeys)
      }
      if changed {
        for device in devices.liveObjects() {
          device.subscribers.contentsDidChange()
        }
      }
      return refused
    }
  }

  private let container: Container
  private let subscribers = CloudSubscribers(label: "memory")
  private let currentAccount: AnnotatedMutex<String>

  /// Creates a device on a new, empty container.
  ///
  /// - Parameter account: The account the device is signed into.
  public convenience init(account: String = "default") {
    self.init(container: Container(), account: account)
  }

  private init(container: Container, account: String) {
    self.container = container
    currentAccount = AnnotatedMutex(account)
    subscribers.source = self
    container.connect(self)
  }

  /// Creates another device connected to this one's container.
  ///
  /// - Parameter account: Its account; nil: the same as this device's.
  /// - Returns: The new device.
  public func anotherDevice(account: String? = nil) -> InMemoryCloudBackend {
    InMemoryCloudBackend(container: container, account: account ?? self.account)
  }

  /// The account this device is signed into.
  public var account: String {
    currentAccount.withLock { $0 }
  }

  /// `in-memory`, no endpoint, always connected.
  public var syncStatus: CloudSyncStatus {
    CloudSyncStatus(
      backend: "in-memory", endpoint: nil, account: account, connection: .connected,
      reachedQuorum: true)
  }

  func readContents() -> CloudContainerContents {
    container.contents(of: account)
  }

  /// Everything stored for the current account.
  public func load() -> CloudRecordBatch {
    readContents().batch(after: nil)
  }

  /// Keeps, per key, the record with the greater timestamp; tells every device of the container.
  ///
  /// - Throws: ``CloudQuotaViolation`` naming the records refused for the container's quota
  ///   (the others are saved).
  public func save(_ records: [PropertyListKey: CloudRecord]) throws {
    let refused = container.save(records, to: account)
    if !refused.isEmpty { throw CloudQuotaViolation(keys: refused) }
  }

  /// Delivers the records saved after `cursor`, then every later change, on this device's queue.
  public func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  ) -> ObservationToken {
    subscribers.add(from: cursor, handler)
  }

  /// Signs this device into `account` (created empty on first use) and tells its subscribers.
  public func switchAccount(to account: String) {
    try? subscribers.switchAccount {
      currentAccount.withLock { $0 = account }
      return (account, container.contents(of: account))
    }
  }
}

import Foundation
import ObservableDefaultsCore
import ObservableDefaultsNATS
import TestSupport
import Testing

/// The backends every conformance test runs against.
enum CloudBackendKind: String, CaseIterable, CustomTestStringConvertible {
  case inMemory
  case embedded
  case etcd
  case nats

  var testDescription: String { rawValue }
}

/// One container of a backend kind (in a temporary folder for the embedded backend), from which a
/// test makes devices.
struct CloudTestContainer {
  let kind: CloudBackendKind
  let folder: TemporaryFolder
  /// The in-memory container's first device; other devices connect through it.
  private let memory = InMemoryCloudBackend()
  /// The etcd container's key root (fresh per test) on the shared cluster.
  private let etcdRoot = freshEtcdRoot()
  /// The NATS container's name (fresh per test, so fresh buckets) on the shared cluster.
  private let natsContainer = freshNATSContainer()

  init(_ kind: CloudBackendKind, in folder: TemporaryFolder) {
    self.kind = kind
    self.folder = folder
  }

  /// The configuration of a device on the etcd container (journal in memory).
  func etcdConfiguration(account: String = "default") throws -> EtcdConfiguration {
    let cluster = try EtcdTestCluster.shared.get()
    return EtcdConfiguration(
      endpoints: cluster.endpoints, root: etcdRoot, container: "tests", account: account)
  }

  /// A new device on this container (a new process, or a restart of one).
  func device(account: String = "default") throws -> any CloudBackend {
    switch kind {
    case .inMemory:
      return memory.anotherDevice(account: account)
    case .embedded:
      return EmbeddedCloudBackend(root: folder.url, container: "tests", account: account)
    case .etcd:
      return try EtcdCloudBackend(configuration: etcdConfiguration(account: account))
    case .nats:
      let cluster = try NATSTestCluster.shared.get()
      return try NATSCloudBackend(
        configuration: cluster.configuration(container: natsContainer, account: account))
    }
  }

  /// A store on a new device, its saves counted.
  func store(account: String = "default") throws -> (
    NSUbiquitousKeyValueStore, CountingCloudBackend
  ) {
    let backend = CountingCloudBackend(try device(account: account))
    return (NSUbiquitousKeyValueStore(backend: backend), backend)
  }
}

/// Runs `body` with a fresh container of `kind`.
func withCloudContainer<T>(_ kind: CloudBackendKind, _ body: (CloudTestContainer) async throws -> T)
  async throws -> T
{
  try await withTemporaryFolder { folder in
    try await body(CloudTestContainer(kind, in: folder))
  }
}

/// A backend that forwards to another and counts the saves: the writes a store makes.
final class CountingCloudBackend: CloudBackend, @unchecked Sendable {
  let base: any CloudBackend
  private let lock = NSLock()
  private var saved: [[String: CloudRecord]] = []

  init(_ base: any CloudBackend) {
    self.base = base
  }

  /// The number of `save` calls so far.
  var saveCount: Int { lock.withLock { saved.count } }

  /// The keys of every save so far, in order.
  var savedKeys: [Set<String>] { lock.withLock { saved.map { Set($0.keys) } } }

  func load() throws -> CloudRecordBatch { try base.load() }

  func save(_ records: [String: CloudRecord]) throws {
    lock.withLock { saved.append(records) }
    try base.save(records)
  }

  func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  )
    -> DefaultsObservation
  {
    base.subscribe(from: cursor, handler)
  }

  func switchAccount(to account: String) throws { try base.switchAccount(to: account) }

  var syncStatus: CloudSyncStatus { base.syncStatus }
}

/// Records the `didChangeExternallyNotification`s posted for one store object.
final class CloudNotificationLog: @unchecked Sendable {
  struct Entry: Equatable {
    var reason: Int
    var keys: [String]
  }

  private let lock = NSLock()
  private var entries: [Entry] = []
  private var token: (any NSObjectProtocol)?

  init(_ store: NSUbiquitousKeyValueStore) {
    token = NotificationCenter.default.addObserver(
      forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: store, queue: nil
    ) { [self] note in
      let reason =
        (note.userInfo?[NSUbiquitousKeyValueStoreChangeReasonKey] as? NSNumber)?.intValue ?? -1
      let keys = note.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
      lock.withLock { entries.append(Entry(reason: reason, keys: keys)) }
    }
  }

  var all: [Entry] { lock.withLock { entries } }

  deinit {
    if let token { NotificationCenter.default.removeObserver(token) }
  }
}

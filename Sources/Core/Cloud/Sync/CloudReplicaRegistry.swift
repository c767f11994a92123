import Foundation

/// The weakly held table of live ``CloudReplica`` objects, one per backend object, so every
/// ``NSUbiquitousKeyValueStore`` on one backend in this process shares one device copy.
///
/// Like the suites' registry, the first replica installs an `atexit` hook that saves every
/// replica's pending writes, so a value set just before a normal exit reaches the container.
final class CloudReplicaRegistry: @unchecked Sendable {
  static let shared = CloudReplicaRegistry()

  private final class WeakReplica {
    weak var replica: CloudReplica?
    init(_ replica: CloudReplica) { self.replica = replica }
  }

  private let lock = NSLock()
  private var table: [ObjectIdentifier: WeakReplica] = [:]
  private var exitHookInstalled = false

  /// The replica of `backend`, created (loading the backend) on first use.
  func replica(for backend: any CloudBackend) -> CloudReplica {
    let (replica, installHook): (CloudReplica, Bool) = lock.withLock {
      let id = ObjectIdentifier(backend)
      if let existing = table[id]?.replica { return (existing, false) }
      let created = CloudReplica(backend: backend)
      table[id] = WeakReplica(created)
      defer { exitHookInstalled = true }
      return (created, !exitHookInstalled)
    }
    if installHook { atexit { CloudReplicaRegistry.shared.flushAll() } }
    return replica
  }

  /// Forgets the entries of replicas that are gone.
  func removeReleased() {
    lock.withLock { table = table.filter { $0.value.replica != nil } }
  }

  /// Saves every live replica's pending writes and waits (the `atexit` hook).
  private func flushAll() {
    let live = lock.withLock { table.values.compactMap(\.replica) }
    for replica in live {
      replica.flush()
    }
  }
}

import Foundation

/// The live ``CloudReplica`` objects, one per backend object, so every
/// ``NSUbiquitousKeyValueStore`` on one backend in this process shares one device copy.
///
/// Like the suites' registry, the first replica installs an `atexit` hook that saves every
/// replica's pending writes, so a value set just before a normal exit reaches the container.
final class CloudReplicaRegistry: Sendable {
  static let shared = CloudReplicaRegistry()

  /// Backend identity → replica (a replica keeps its backend alive, so the identity is not reused
  /// while the entry lives).
  private let replicas = WeakRegistry<ObjectIdentifier, CloudReplica>()

  /// The replica of `backend`, created (loading the backend) on first use.
  func replica(for backend: any CloudBackend) -> CloudReplica {
    let (replica, _, isFirst) = replicas.object(for: ObjectIdentifier(backend)) {
      CloudReplica(backend: backend)
    }
    if isFirst { atexit { CloudReplicaRegistry.shared.flushAll() } }
    return replica
  }

  /// Forgets `replica` (from its `deinit`).
  func remove(_ replica: CloudReplica) {
    replicas.remove(ObjectIdentifier(replica.backend), ifStillHolding: ObjectIdentifier(replica))
  }

  /// Saves every live replica's pending writes and waits (the `atexit` hook).
  private func flushAll() {
    for replica in replicas.liveObjects() {
      replica.flush()
    }
  }
}

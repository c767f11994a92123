import Foundation

/// The backend of ``NSUbiquitousKeyValueStore/default``, chosen once, at first use:
///
/// 1. the backend given to ``NSUbiquitousKeyValueStore/setDefaultBackend(_:)`` before first use;
/// 2. else the backend of the first registered engine (``CloudEngines``: etcd, NATS) that the
///    environment or the configuration file names, so an app's `@ObservableCloud` classes sync
///    across machines without code changes;
/// 3. else the ``EmbeddedCloudBackend`` of ``CloudContainerDirectory``.
///
/// An unusable configuration (say, a credentials file readable by others) is reported on
/// standard error and the embedded backend is used, so the app still starts. When several engines
/// are configured, the first registered one is used (etcd before NATS).
package enum CloudDefaultBackend {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var chosen: (any CloudBackend)?
  nonisolated(unsafe) private static var resolved: (any CloudBackend)?

  /// Chooses the backend, unless the default store was already used.
  ///
  /// - Throws: ``CloudBackendSelectionError`` after first use.
  static func choose(_ backend: any CloudBackend) throws {
    try lock.withLock {
      guard resolved == nil else { throw CloudBackendSelectionError() }
      chosen = backend
    }
  }

  /// The backend, resolved on the first call.
  static var backend: any CloudBackend {
    lock.withLock {
      if let resolved { return resolved }
      let backend = chosen ?? configured(container: CloudContainerDirectory.defaultContainer)
      resolved = backend
      return backend
    }
  }

  /// A new device of `container` on the backend the configuration names (the rule above,
  /// without step 1): what the shared store of a program with that container would use.
  package static func configured(container: String) -> any CloudBackend {
    for engine in CloudEngines.registered {
      do {
        if let backend = try engine.configuredBackend(container) { return backend }
      } catch {
        Diagnostics.report(
          "NSUbiquitousKeyValueStore",
          "\(engine.name) not used, the embedded container is: \(error)")
        break
      }
    }
    return EmbeddedCloudBackend(container: container)
  }
}

/// ``NSUbiquitousKeyValueStore/setDefaultBackend(_:)`` was called after the default store was
/// first used; the store keeps its backend.
public struct CloudBackendSelectionError: Error, CustomStringConvertible {
  /// The message: `setDefaultBackend(_:)` must be called before `NSUbiquitousKeyValueStore.default`
  /// is first used.
  public var description: String {
    "NSUbiquitousKeyValueStore.setDefaultBackend(_:) must be called before NSUbiquitousKeyValueStore.default is first used"
  }
}

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
/// standard error and the embedded backend is used, so the app still starts; its state names
/// the engine and why (``CloudSyncStatus/fallback``), so it never reads as a plain `connected`. When several engines
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

  /// Whether `backend` is the backend of the default store (false while it has none yet).
  package static func isDefault(_ backend: any CloudBackend) -> Bool {
    lock.withLock { resolved.map { $0 === backend } ?? false }
  }

  /// A new device of `container` on the backend the configuration names (the rule above,
  /// without step 1): what the shared store of a program with that container would use.
  package static func configured(container: String) -> any CloudBackend {
    do {
      return try engineBackend(container: container) ?? EmbeddedCloudBackend(container: container)
    } catch {
      Diagnostics.report(
        "NSUbiquitousKeyValueStore", "\(error.engine) not used, the embedded container is: \(error)"
      )
      let embedded = EmbeddedCloudBackend(container: container)
      embedded.fallback = "\(error.engine): \(error)"
      return embedded
    }
  }

  /// A new device of `container` on the first registered engine the configuration names, or
  /// nil when it names none.
  ///
  /// - Throws: ``CloudEngineFailure`` when the first engine it names cannot be used (an unusable
  ///   credentials file, servers that refuse the credentials).
  package static func engineBackend(container: String) throws(CloudEngineFailure)
    -> (any CloudBackend)?
  {
    for engine in CloudEngines.registered {
      do {
        if let backend = try engine.configuredBackend(container) { return backend }
      } catch {
        throw CloudEngineFailure(engine: engine.name, error: error)
      }
    }
    return nil
  }
}

/// The engine a configuration names cannot be used: which engine, and why.
package struct CloudEngineFailure: Error, CustomStringConvertible {
  /// The engine's name (`etcd`, `NATS`).
  package var engine: String
  /// What the engine threw.
  package var error: any Error
  package var description: String { "\(error)" }
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

internal import CCloudEngineRegistration
import Foundation

/// A sync engine the shared cloud store (``NSUbiquitousKeyValueStore/default``) can take from
/// the environment or the configuration file, without code changes: etcd, NATS.
///
/// Core names no engine. The umbrella module `ObservableDefaults` registers the engines its
/// package traits enabled, through a weak hook that Core calls once, when the shared store
/// resolves its backend (see `Sources/CCloudEngineRegistration`). A program of this package that
/// links an engine directly registers it itself (``CloudEngines/register(_:)``).
package struct CloudEngine: Sendable {
  /// The engine's name in diagnostics, e.g. `etcd`.
  package var name: String

  /// The backend of a container (its name) that the environment or the configuration file
  /// names for this engine, `nil` when they name none; throws when they name one that cannot be
  /// used (say, a credentials file readable by others).
  package var configuredBackend: @Sendable (_ container: String) throws -> (any CloudBackend)?

  /// An engine named `name` whose configured backend is `configuredBackend`.
  package init(
    name: String,
    configuredBackend: @escaping @Sendable (_ container: String) throws -> (any CloudBackend)?
  ) {
    self.name = name
    self.configuredBackend = configuredBackend
  }
}

/// The engines registered with the shared cloud store, in registration order.
package enum CloudEngines {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var engines: [CloudEngine] = []
  nonisolated(unsafe) private static var askedTheUmbrella = false

  /// Adds `engine`, unless one of the same name is registered.
  package static func register(_ engine: CloudEngine) {
    lock.withLock {
      if !engines.contains(where: { $0.name == engine.name }) { engines.append(engine) }
    }
  }

  /// Every registered engine, after the umbrella module (when linked) registered its own.
  package static var registered: [CloudEngine] {
    let ask = lock.withLock {
      defer { askedTheUmbrella = true }
      return !askedTheUmbrella
    }
    if ask { observable_defaults_register_linked_cloud_engines() }
    return lock.withLock { engines }
  }
}

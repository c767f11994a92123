import Foundation
package import ObservableDefaultsCore

extension NATSCloudBackend {
  /// NATS as an engine of the shared cloud store: used when the environment or
  /// `CloudConfigurationFile` names servers (``NATSConfiguration/fromEnvironment(container:environment:)``).
  package static let engine = CloudEngine(name: "NATS") { container in
    try NATSConfiguration.fromEnvironment(container: container).map {
      try NATSCloudBackend(configuration: $0)
    }
  }
}

extension NATSCloudBackend: CloudEngineBackend {
  package static let noCursor = NATSCursor.none

  package func withJournal<Value: Sendable>(_ body: (CloudDeviceJournal) -> Value) -> Value {
    state.withLock { body($0.device.journal) }
  }
}

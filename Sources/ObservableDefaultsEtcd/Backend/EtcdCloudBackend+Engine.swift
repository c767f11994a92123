import Foundation
package import ObservableDefaultsCore

extension EtcdCloudBackend {
  /// etcd as an engine of the shared cloud store: used when the environment or
  /// `CloudConfigurationFile` names endpoints (``EtcdConfiguration/fromEnvironment(container:environment:)``).
  package static let engine = CloudEngine(name: "etcd") { container in
    try EtcdConfiguration.fromEnvironment(container: container).map {
      try EtcdCloudBackend(configuration: $0)
    }
  }
}

extension EtcdCloudBackend: CloudEngineBackend {
  package static let noCursor = EtcdCursor.none

  package func withJournal<Value: Sendable>(_ body: (CloudDeviceJournal) -> Value) -> Value {
    state.withLock { body($0.device.journal) }
  }
}

package import Foundation
package import ObservableDefaultsCore
import Synchronization

extension EtcdCloudBackend {
  /// etcd as an engine of the shared cloud store: used when the environment or
  /// `CloudConfigurationFile` names endpoints (``EtcdConfiguration/fromEnvironment(container:environment:)``).
  package static let engine = CloudEngine(name: "etcd") { container in
    try EtcdConfiguration.fromEnvironment(container: container).map {
      try EtcdCloudBackend(configuration: $0)
    }
  }
}

extension EtcdCloudBackend: CloudJournaledBackend {
  package var journalLocation: (url: URL, isHeldElsewhere: Bool)? {
    state.withLock { $0.device.journal.whereKept }
  }
}

extension EtcdCloudBackend: CloudLocalFirstBackend {
  /// The journal's records (the last ones read, with this device's pending writes over them)
  /// and its resume point, without the network.
  package func localBatch() -> CloudRecordBatch {
    state.withLock { $0.device.journal.localBatch(none: EtcdCursor.none) }
  }
}

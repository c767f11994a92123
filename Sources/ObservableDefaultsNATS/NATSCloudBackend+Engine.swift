package import Foundation
package import ObservableDefaultsCore
import Synchronization

extension NATSCloudBackend {
  /// NATS as an engine of the shared cloud store: used when the environment or
  /// `CloudConfigurationFile` names servers (``NATSConfiguration/fromEnvironment(container:environment:)``).
  package static let engine = CloudEngine(name: "NATS") { container in
    try NATSConfiguration.fromEnvironment(container: container).map {
      try NATSCloudBackend(configuration: $0)
    }
  }
}

extension NATSCloudBackend: CloudJournaledBackend {
  package var journalLocation: (url: URL, isHeldElsewhere: Bool)? {
    state.withLock { $0.device.journal.whereKept }
  }
}

extension NATSCloudBackend: CloudLocalFirstBackend {
  /// The journal's records (the last ones read, with this device's pending writes over them)
  /// and its resume point, without the network.
  package func localBatch() -> CloudRecordBatch {
    state.withLock { $0.device.journal.localBatch(none: NATSCursor.none) }
  }
}

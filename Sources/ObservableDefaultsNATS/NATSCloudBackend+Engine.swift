import ObservableDefaultsCore

extension NATSCloudBackend {
  /// NATS as an engine of the shared cloud store: used when the environment or
  /// `CloudConfigurationFile` names servers (``NATSConfiguration/fromEnvironment(container:environment:)``).
  package static let engine = CloudEngine(name: "NATS") {
    try NATSConfiguration.fromEnvironment().map { try NATSCloudBackend(configuration: $0) }
  }
}

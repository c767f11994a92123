import ObservableDefaultsCore

extension EtcdCloudBackend {
  /// etcd as an engine of the shared cloud store: used when the environment or
  /// `CloudConfigurationFile` names endpoints (``EtcdConfiguration/fromEnvironment(container:environment:)``).
  package static let engine = CloudEngine(name: "etcd") {
    try EtcdConfiguration.fromEnvironment().map { try EtcdCloudBackend(configuration: $0) }
  }
}

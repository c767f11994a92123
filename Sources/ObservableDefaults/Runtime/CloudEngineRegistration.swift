import ObservableDefaultsCore

/// Registers the sync engines of the enabled package traits with the shared cloud store, etcd
/// first. Core calls it, through the weak hook of `CCloudEngineRegistration`, once, when
/// `NSUbiquitousKeyValueStore.default` resolves its backend: so a program that imports
/// `ObservableDefaults` chooses an engine from configuration, and one that links only
/// `ObservableDefaultsCore` has the embedded container alone.
@_cdecl("observable_defaults_register_cloud_engines")
func registerCloudEngines() {
  #if EtcdSupport
    CloudEngines.register(EtcdCloudBackend.engine)
  #endif
  #if NATSSupport
    CloudEngines.register(NATSCloudBackend.engine)
  #endif
}

// The library users import re-exports what its macro expansions and its users need:
// Foundation's `UserDefaults`, the Observation framework, and the storage core.
@_exported import Foundation
@_exported import ObservableDefaultsCore
@_exported import Observation

// The sync engines of the enabled package traits (see Package.swift), registered with the shared
// cloud store in CloudEngineRegistration.swift.
#if EtcdSupport
  @_exported import ObservableDefaultsEtcd
#endif
#if NATSSupport
  @_exported import ObservableDefaultsNATS
#endif

// The library users import re-exports what its macro expansions and its users need:
// Foundation's `UserDefaults`, the Observation framework, and the storage core. An `@_exported`
// import is public under InternalImportsByDefault too, for the whole module: the other files'
// public declarations use these modules through it, and the expansions name
// `ObservableDefaults.UserDefaults` and `ObservableDefaults.Observable` through it.
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

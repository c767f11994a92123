// The library users import re-exports what its macro expansions and its users need:
// Foundation's `UserDefaults`, the Observation framework, and the storage core.
@_exported import Foundation
@_exported import ObservableDefaultsCore
@_exported import Observation

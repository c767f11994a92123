// The seam between ObservableDefaultsCore, which never names a sync engine, and the umbrella module
// ObservableDefaults, which knows the engines its package traits enabled.
//
// The umbrella defines observable_defaults_register_cloud_engines (a @_cdecl Swift function that
// registers each engine with CloudEngines). The reference to it here is weak: in a program that
// links only ObservableDefaultsCore it stays null, and the shared cloud store has the embedded
// container alone. Nothing runs at load time; the hook is called once, when the shared store
// resolves its backend.
#ifndef CLOUD_ENGINE_REGISTRATION_H
#define CLOUD_ENGINE_REGISTRATION_H

/// Calls the umbrella module's engine registration when the program links it; does nothing
/// otherwise.
void observable_defaults_register_linked_cloud_engines(void);

#endif

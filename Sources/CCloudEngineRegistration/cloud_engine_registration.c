#include "cloud_engine_registration.h"

// Defined by ObservableDefaults (Sources/ObservableDefaults/Runtime/CloudEngineRegistration.swift).
extern void observable_defaults_register_cloud_engines(void) __attribute__((weak));

void observable_defaults_register_linked_cloud_engines(void) {
  if (observable_defaults_register_cloud_engines) {
    observable_defaults_register_cloud_engines();
  }
}
